; Tags query for C++ and C (tree-sitter-cpp); vocabulary as in typescript.scm. `@owner` is the
; class of an out-of-line member definition (`void Foo::bar() {}`).
(namespace_definition name: (_) @name) @definition.namespace
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @owner name: (identifier) @name))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @owner name: (destructor_name) @name))) @definition.method
; Member declarations, rooted at the declarator (ancestor-predicates.ts): a pattern rooted at the
; class body, or at the member whose declarator follows its type, keeps a match open across the
; body or the type (a nested struct), quadratic in the nesting.
((function_declarator declarator: (field_identifier) @name) @_declarator
  (#parent-type? @_declarator field_declaration) (#grandparent-type? @_declarator field_declaration_list)
  (#capture-parent? @_declarator definition.method))
((function_declarator declarator: [(identifier) (field_identifier)] @name) @_declarator
  (#parent-type? @_declarator declaration) (#grandparent-type? @_declarator field_declaration_list)
  (#capture-parent? @_declarator definition.method))
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(call_expression function: (_) @callee) @reference.call
(new_expression type: (_) @callee) @reference.new
(base_class_clause (type_identifier) @reference.inherits)
(base_class_clause (qualified_identifier) @reference.inherits)

(preproc_include) @import
(declaration) @local
(parameter_declaration) @param
(return_statement (_) @return)
