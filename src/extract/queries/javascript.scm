; Tags query for JavaScript (.js .jsx .mjs .cjs; tree-sitter-javascript). Capture vocabulary:
;   @definition.<kind> + @name       a declaration and its name
;   @reference.call/new + @callee    a call site and its callee expression
;   @reference.super                 a super(...) constructor call
;   @reference.type                  a type use
;   @reference.extends/implements    a base type of the enclosing declaration
;   @import @export @local @param @field   statements the language hooks read

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

(class_declaration name: (identifier) @name) @definition.class

(class name: (identifier) @name) @definition.class
; Rooted at the definition, the container checked by an ancestor predicate (ancestor-predicates.ts):
; `(class_body (method_definition))` keeps a match open at every class body across its whole subtree.
((method_definition name: (_) @name) @definition.method (#parent-type? @definition.method class_body))
(field_definition property: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
(variable_declarator name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; CommonJS: exports.f = function () {}; module.exports.f = () => {}
(assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)]
  (#eq? @_exports "exports")) @definition.function
(assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)]
  (#eq? @_module "module") (#eq? @_exports "exports")) @definition.function
; `obj.x = function () {}`, `X.prototype.y = function () {}`: a method of obj / X (`@owner`), named
; `obj.x` / `X.y`. `exports`/`module` are the module itself (above).
((assignment_expression
  left: (member_expression object: (identifier) @owner property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
  (#not-eq? @owner "exports") (#not-eq? @owner "module"))
((assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @owner property: (property_identifier) @_proto) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
  (#eq? @_proto "prototype"))
; `module.exports = { get() {}, post: function () {} }`: module members (ECMASCRIPT_SPEC.refineDef checks the target)
((method_definition name: (_) @name) @definition.function
  (#parent-type? @definition.function object) (#grandparent-type? @definition.function assignment_expression))
((pair key: (_) @name value: [(arrow_function) (function_expression)]) @definition.function
  (#parent-type? @definition.function object) (#grandparent-type? @definition.function assignment_expression))
; Objects of functions bound to a name: `const api = { get() {}, post: () => {} }`
; (kept when a member is a function: ECMASCRIPT_SPEC.refineDef)
(variable_declarator name: (identifier) @name value: (object)) @definition.variable
((method_definition name: (_) @name) @definition.method
  (#parent-type? @definition.method object) (#grandparent-type? @definition.method variable_declarator))
((pair key: (_) @name value: [(arrow_function) (function_expression)]) @definition.method
  (#parent-type? @definition.method object) (#grandparent-type? @definition.method variable_declarator))

; ---- references
(call_expression function: (_) @callee) @reference.call
(new_expression constructor: (_) @callee) @reference.new
(class_heritage (_) @reference.extends)

; Value uses of a function or class (passed, assigned, returned, listed; a getter read there):
; `references` edges when the name resolves to one (link/index.ts)
(arguments [(identifier) (member_expression)] @reference.value)
(return_statement [(identifier) (member_expression)] @reference.value)
(arrow_function body: [(identifier) (member_expression)] @reference.value)
(variable_declarator value: [(identifier) (member_expression)] @reference.value)
(assignment_expression right: [(identifier) (member_expression)] @reference.value)
(pair value: [(identifier) (member_expression)] @reference.value)
(array [(identifier) (member_expression)] @reference.value)
(shorthand_property_identifier) @reference.value

; ---- statements read by the language hooks
(return_statement (_) @return)
(arrow_function body: (_) @return)
(import_statement) @import
(export_statement) @export
(assignment_expression left: (member_expression object: (identifier) @_m property: (property_identifier) @_e) (#eq? @_m "module") (#eq? @_e "exports")) @export
(variable_declarator) @local
(field_definition) @field
(assignment_expression left: (member_expression object: (this))) @field
(formal_parameters [(identifier) (assignment_pattern)] @param)
