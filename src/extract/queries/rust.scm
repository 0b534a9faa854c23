; Tags query for Rust (tree-sitter-rust); vocabulary as in typescript.scm. `@owner` is the type of
; an `impl` block.
(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.struct
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
(impl_item type: (_) @owner body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(macro_definition name: (identifier) @name) @definition.function

(call_expression function: (_) @callee) @reference.call
(macro_invocation macro: (_) @callee) @reference.call
(type_identifier) @reference.type
(impl_item trait: (_) @reference.implements type: (_) @owner)

(use_declaration) @import
(let_declaration) @local
(parameter) @param
(field_declaration) @field
(return_expression (_) @return)
