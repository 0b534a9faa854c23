/**
 * structural_search's built-in patterns: each is a plain SYNQL query (shown with `verbose`), so a
 * user can copy one and adapt it. They are heuristics over names and shape, not proofs.
 */
export const PATTERNS: Readonly<Record<string, { what: string; query: string }>> = {
  singleton: {
    what: 'classes that hide their constructor or hand out one shared instance',
    query: `MATCH (c:class|struct)-[:method|contains]->(m)
WHERE (m.kind = 'constructor' AND m.visibility IN ['private', 'protected'])
   OR m.name =~ '^(getInstance|get_instance|instance|sharedInstance|shared|INSTANCE|_instance)$'
RETURN DISTINCT c`,
  },
  factory: {
    what: 'functions and methods named create/make/build/new... that construct a class, or *Factory types',
    query: `MATCH (f:function|method)-[:instantiates|calls]->(t:class|struct|constructor)
WHERE f.name =~ '^(create|make|build|new)[A-Z_]|[Ff]actory'
RETURN DISTINCT f`,
  },
  observer: {
    what: 'types with both a subscribe-like and a notify-like member',
    query: `MATCH (c:class|interface|struct)-[:method|contains]->(s), (c)-[:method|contains]->(n)
WHERE s.name =~ '^(subscribe|addListener|addEventListener|addObserver|attach|on|register[A-Z]?\\w*Listener)$'
  AND n.name =~ '^(notify\\w*|emit|publish|dispatch|fire|trigger)$'
RETURN DISTINCT c`,
  },
  'service-locator': {
    what: 'registries that both register and look up services by key',
    query: `MATCH (c:class|interface|struct)-[:method|contains]->(r), (c)-[:method|contains]->(g)
WHERE r.name =~ '^(register|provide|bind|add)(Service|Provider|Singleton|Factory)?$'
  AND g.name =~ '^(get|resolve|lookup|locate|inject)(Service|Provider|Instance)?$'
RETURN DISTINCT c`,
  },
  'god-class': {
    what: 'classes with many members, many lines or many dependencies',
    query: `MATCH (c:class|struct)
WHERE c.members >= 20 OR c.loc >= 500 OR c.fan_out >= 40
RETURN c ORDER BY c.loc DESC`,
  },
};

export const PATTERN_NAMES = Object.keys(PATTERNS);
