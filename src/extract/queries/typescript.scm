; Tags query for TypeScript and TSX (tree-sitter-typescript). Capture vocabulary:
;   @definition.<kind> + @name       a declaration and its name
;   @reference.call/new + @callee    a call site and its callee expression
;   @reference.super                 a super(...) constructor call
;   @reference.type                  a type use
;   @reference.extends/implements    a base type of the enclosing declaration
;   @reference.inherits/embeds/mixes_in   (other languages' base kinds)
;   @owner                           receiver/impl type of a method declared outside its type
;   @return                          a returned expression (types `f().g()` without annotations)
;   @import @export @local @param @field   statements the language hooks read (lang/*.ts)
; Captures named `_x` are predicate helpers and ignored.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(class name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.module
; Rooted at the definition, the container checked by an ancestor predicate (ancestor-predicates.ts):
; `(class_body (method_definition))` keeps a match open at every class body across its whole subtree.
((method_definition name: (_) @name) @definition.method (#parent-type? @definition.method class_body))
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
(variable_declarator name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; `obj.x = function () {}`, `X.prototype.y = function () {}`: a method of obj / X (`@owner`), named `obj.x` / `X.y`
((assignment_expression
  left: (member_expression object: (identifier) @owner property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
  (#not-eq? @owner "exports") (#not-eq? @owner "module"))
((assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @owner property: (property_identifier) @_proto) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
  (#eq? @_proto "prototype"))
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
(type_identifier) @reference.type
(nested_type_identifier) @reference.type
(extends_clause value: (_) @reference.extends)
(implements_clause (_) @reference.implements)
(extends_type_clause type: (_) @reference.extends)
(type_alias_declaration value: [(type_identifier) (generic_type) (nested_type_identifier)] @reference.extends)

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
(variable_declarator) @local
(required_parameter) @param
(optional_parameter) @param
(public_field_definition) @field
(property_signature) @field
(assignment_expression left: (member_expression object: (this))) @field
