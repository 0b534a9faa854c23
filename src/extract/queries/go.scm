; Tags query for Go (tree-sitter-go); vocabulary as in typescript.scm. `@owner` is a method's receiver type.
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @owner))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (pointer_type) (generic_type) (function_type) (map_type) (slice_type) (array_type) (channel_type)]) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(interface_type (method_elem name: (field_identifier) @name) @definition.method)

(call_expression function: (_) @callee) @reference.call
(field_declaration_list (field_declaration !name type: (_) @reference.embeds))
(interface_type (type_elem (_) @reference.embeds))
(type_identifier) @reference.type
(qualified_type) @reference.type

(import_spec) @import
(short_var_declaration) @local
(var_spec) @local
(parameter_declaration) @param
(field_declaration name: (_) type: (_)) @field
(field_declaration !name type: (_)) @field
(range_clause) @local
(return_statement (expression_list . (_) @return))
