/**
 * A Cypher syntax check with Neo4j's own grammar: the ANTLR lexer and parser that
 * @neo4j-cypher/language-support generates from the Cypher .g4 files (not exported as a subpath, so
 * loaded by file URL next to the package entry). Returns the syntax errors, `line:col message`.
 */
import { CharStream, CommonTokenStream, type ANTLRErrorListener } from 'antlr4ng';

export async function checkCypher(text: string): Promise<string[]> {
  const generated = new URL('./generated-parser/', import.meta.resolve('@neo4j-cypher/language-support'));
  const { CypherCmdLexer } = (await import(new URL('CypherCmdLexer.js', generated).href)) as { CypherCmdLexer: new (s: CharStream) => any };
  const { CypherCmdParser } = (await import(new URL('CypherCmdParser.js', generated).href)) as { CypherCmdParser: new (s: CommonTokenStream) => any };
  const errors: string[] = [];
  const listener: ANTLRErrorListener = {
    syntaxError: (_r, _s, line, col, msg) => void errors.push(`${line}:${col} ${msg}`),
    reportAmbiguity: () => {},
    reportAttemptingFullContext: () => {},
    reportContextSensitivity: () => {},
  };
  const lexer = new CypherCmdLexer(CharStream.fromString(text));
  lexer.removeErrorListeners();
  lexer.addErrorListener(listener);
  const parser = new CypherCmdParser(new CommonTokenStream(lexer));
  parser.removeErrorListeners();
  parser.addErrorListener(listener);
  parser.statementsOrCommands();
  return errors;
}
