/**
 * Embedded SQL in Go (database/sql, sqlx, pgx, gorm Raw) and Java (JDBC, Spring JdbcTemplate), and
 * the Python `.format` / `%` shapes (#21): tables read and written, filtered columns, and injection
 * only where a non-constant is spliced into the text (placeholders, constants and `%d` are not).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import type { LanguageId } from '../../src/extract/languages.ts';

async function queries(path: string, language: LanguageId, source: string) {
  const f = await extractFileFacts({ path, source, language });
  return {
    rows: (f.sql?.queries ?? []).map((q) => `L${q.line} ${f.symbols[q.scope]?.name} ${q.client} r=${q.reads} w=${q.writes} c=${q.columns}${q.injection ? ` INJECTION ${q.injection}` : ''}`),
    marked: f.symbols.filter((s) => s.extra?.sql_injection).map((s) => `${s.name}: ${s.extra!.sql_injection}`),
  };
}

test('Go: database/sql, sqlx, pgx; Sprintf and + of a parameter are injection, through a local too; %d, constants, placeholders are not', async () => {
  const go = `package store

const usersTable = "users"

func (s *Store) Find(ctx context.Context, name string, id int) error {
	q := fmt.Sprintf("SELECT id FROM users WHERE name = '%s'", name)
	rows, err := s.db.QueryContext(ctx, q)
	s.db.Exec(\`DELETE FROM users WHERE id = $1\`, id)
	s.db.Get(&u, "SELECT email FROM " + usersTable + " WHERE id = ?", id)
	s.db.Select(&u, fmt.Sprintf("SELECT id FROM users WHERE id = %d LIMIT %d", id, 10))
	query := "SELECT id FROM accounts WHERE 1=1"
	if name != "" {
		query += " AND name = ?"
	}
	s.db.Query(query, name)
	return err
}

func (s *Store) Named(ctx context.Context, u User, q string) {
	s.db.NamedExec(\`INSERT INTO users (name) VALUES (:name)\`, u)
	s.pool.Exec(ctx, "UPDATE users SET name = @name WHERE id = @id", pgx.NamedArgs{})
	s.db.Query(q)
	s.db.QueryRowContext(ctx, "SELECT name FROM users WHERE id = " + strconv.Itoa(u.ID))
	s.db.QueryRow("SELECT name FROM users " + u.Where)
}
`;
  const r = await queries('store/store.go', 'go', go);
  assert.deepEqual(r.rows, [
    'L7 Find s.db.QueryContext r=users w= c=name INJECTION name',
    'L8 Find s.db.Exec r= w=users c=id',
    'L9 Find s.db.Get r=users w= c=id',
    'L10 Find s.db.Select r=users w= c=id',
    'L15 Find s.db.Query r=accounts w= c=name',
    'L20 Named s.db.NamedExec r= w=users c=',
    'L21 Named s.pool.Exec r= w=users c=id',
    'L23 Named s.db.QueryRowContext r=users w= c=id',
    'L24 Named s.db.QueryRow r=users w= c= INJECTION u.Where',
  ]);
  assert.deepEqual(r.marked, ['Find: L7 s.db.QueryContext: name', 'Named: L24 s.db.QueryRow: u.Where']);
});

test('Java: JDBC and JdbcTemplate; + and String.format of a parameter are injection; fields, ALL_CAPS, text blocks and ? are not', async () => {
  const java = `class OwnerRepo {
  private static final String FIND = "SELECT id FROM owners WHERE id = ?";
  private final String base = "SELECT id FROM pets";
  void f(String name, int id) throws Exception {
    String q = "SELECT id FROM users WHERE name = '" + name + "'";
    ResultSet rs = conn.createStatement().executeQuery(q);
    jdbcTemplate.queryForObject("SELECT count(*) FROM owners WHERE id = ?", Integer.class, id);
    jdbcTemplate.query(FIND, mapper, id);
    PreparedStatement ps = conn.prepareStatement("""
      UPDATE owners SET name = ? WHERE id = ?
      """);
    stmt.executeUpdate(String.format("DELETE FROM pets WHERE name = '%s'", name));
    stmt.executeUpdate(String.format("DELETE FROM pets WHERE id = %d", id));
    String sql = base + " WHERE 1=1";
    sql += " AND name = :name";
    named.query(sql, params, mapper);
    jdbc.queryForList("SELECT id FROM visits LIMIT " + PAGE_SIZE);
    executor.execute(() -> run());
    String chain = "SELECT id FROM users WHERE a = '" + name + "' AND b = '" + name + "' AND c = '" + name + "' AND d = '" + name + "'";
    stmt.executeQuery(chain);
  }
}
`;
  const r = await queries('src/main/java/OwnerRepo.java', 'java', java);
  assert.deepEqual(r.rows, [
    'L6 f conn.createStatement().executeQuery r=users w= c=name INJECTION name',
    'L7 f jdbcTemplate.queryForObject r=owners w= c=id',
    'L8 f jdbcTemplate.query r=owners w= c=id',
    'L9 f conn.prepareStatement r= w=owners c=id',
    'L12 f stmt.executeUpdate r= w=pets c=name INJECTION name',
    'L13 f stmt.executeUpdate r= w=pets c=id',
    'L16 f named.query r=pets w= c=name',
    'L17 f jdbc.queryForList r=visits w= c=',
    'L20 f stmt.executeQuery r=users w= c=a,b,c,d INJECTION name, name, name, name',
  ]);
  assert.deepEqual(r.marked, ['f: L6 conn.createStatement().executeQuery: name']);
});

test('Python: .format and % with a tuple or a dict splice; %d, constants and %(name)s parameters do not', async () => {
  const py = `PAGE = 10
def a(cur, name, uid):
    cur.execute("SELECT id FROM users WHERE name = '{}'".format(name))
    cur.execute("SELECT id FROM users WHERE name = '{n}' LIMIT {p}".format(n=name, p=PAGE))
    cur.execute("SELECT id FROM users WHERE name = '%s' AND id = %d" % (name, uid))
    cur.execute("SELECT id FROM users WHERE id = %d" % uid)
    cur.execute("SELECT id FROM users LIMIT {}".format(PAGE))
    cur.execute("SELECT id FROM users WHERE name = %(name)s", {"name": name})
    cur.execute("SELECT id FROM users WHERE name = '%(name)s'" % {"name": name})
`;
  const r = await queries('app/q.py', 'python', py);
  assert.deepEqual(r.rows.map((x) => x.replace(/^L(\d+) a cur\.execute r=users w= c=\S*/, 'L$1')), [
    'L3 INJECTION name', 'L4 INJECTION name', 'L5 INJECTION name', 'L6', 'L7', 'L8', 'L9 INJECTION {"name": name}',
  ]);
});

test('Go query builders (miniflux, memos): a list filled with constants and placeholders is constant, quoting and placeholder helpers are safe, one spliced element is not', async () => {
  const go = `package storage

type builder struct{ conds []string; args []any; sort []string; userConds []string }

func New() *builder {
	return &builder{conds: []string{"e.user_id = $1"}}
}

func (b *builder) WithStatus(s string) *builder {
	b.conds = append(b.conds, "e.status = $"+strconv.Itoa(len(b.args)+1))
	b.conds = append(b.conds, fmt.Sprintf("e.rank > $%d", len(b.args)+1))
	return b
}

func (b *builder) SortBy(column string) { b.sort = append(b.sort, pq.QuoteIdentifier(column)+" ASC") }
func (b *builder) WithTitle(t string) { b.userConds = append(b.userConds, "e.title = '"+t+"'") }
func (b *builder) where() string { return strings.Join(b.conds, " AND ") }
func (b *builder) columns(full bool) string {
	if full {
		return "e.content"
	}
	return "'' AS content"
}

func (b *builder) sorting() string {
	var parts string
	if len(b.sort) > 0 {
		parts += " ORDER BY " + strings.Join(b.sort, ", ")
	}
	return parts
}

func (b *builder) Count(db *sql.DB) {
	query := "SELECT " + b.columns(true) + " FROM entries e WHERE " + b.where() + b.sorting()
	db.QueryRow(query, b.args...)
	db.Query("SELECT id FROM entries e WHERE " + strings.Join(b.userConds, " AND "))
}

func Delete(db *sql.DB, ids []int) {
	where, args := []string{"e.owner = $1"}, []any{1}
	holders := make([]string, 0, len(ids))
	for range ids {
		holders = append(holders, placeholder(len(args)+1))
	}
	where, args = append(where, "e.id IN ("+strings.Join(holders, ", ")+")"), append(args, 1)
	db.ExecContext(ctx, "DELETE FROM entries e WHERE "+strings.Join(where, " AND "), args...)
}
`;
  const r = await queries('storage/builder.go', 'go', go);
  assert.deepEqual(r.rows, [
    'L35 Count db.QueryRow r=entries w= c=status',
    "L36 Count db.Query r=entries w= c= INJECTION \"e.title = '\"+t+\"'\"",
    'L46 Delete db.ExecContext r= w=entries c=owner',
  ]);
});
