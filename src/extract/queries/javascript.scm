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
(class_body (method_definition name: (_) @name) @definition.method)
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
; Objects of functions bound to a name: `const api = { get() {}, post: () => {} }`
(variable_declarator name: (identifier) @name value: (object (method_definition))) @definition.variable
(variable_declarator name: (identifier) @name value: (object (pair value: [(arrow_function) (function_expression)]))) @definition.variable
(variable_declarator value: (object (method_definition name: (_) @name) @definition.method))
(variable_declarator value: (object (pair key: (_) @name value: [(arrow_function) (function_expression)]) @definition.method))

; ---- references
(call_expression function: (_) @callee) @reference.call
(new_expression constructor: (_) @callee) @reference.new
(class_heritage (_) @reference.extends)

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
