; Tags query for Rust (tree-sitter-rust); vocabulary as in typescript.scm. `@owner` is the type of
; an `impl` block.
(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.struct
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
; Methods of an impl, before the plain function pattern (a node's first match wins). Rooted at the
; method: a pattern rooted at the impl keeps a match open across the whole impl body. The impl's
; type is the @owner (ancestor-predicates.ts).
((function_item name: (identifier) @name) @definition.method
  (#parent-type? @definition.method declaration_list) (#grandparent-type? @definition.method impl_item)
  (#capture-grandparent-field? @definition.method owner type))
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
; `macro_rules!`: a function node marked `macro` (the namespace invocations resolve in, never calls').
(macro_definition name: (identifier) @name) @definition.macro

(call_expression function: (_) @callee) @reference.call
(macro_invocation macro: (_) @callee) @reference.macro
(type_identifier) @reference.type
(impl_item trait: (_) @reference.implements type: (_) @owner)

(use_declaration) @import
(let_declaration) @local
(static_item) @local
(const_item) @local
; A method body: `self`/`Self` bindings typed by the impl or trait (lang/rust-types.ts).
(function_item body: (block) @local)
; Names bound by `for` patterns and closure parameters: untyped locals that shadow outer names.
(for_expression pattern: (_) @local)
(closure_parameters) @local
; `type A = B`: the alias resolves to B.
(type_item type: [(type_identifier) (generic_type) (scoped_type_identifier)] @reference.extends)
(parameter) @param
(field_declaration) @field
(ordered_field_declaration_list) @field
(return_expression (_) @return)
