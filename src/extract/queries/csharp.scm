; Tags query for C# (tree-sitter-c-sharp); vocabulary as in typescript.scm.
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(local_function_statement name: (identifier) @name) @definition.function

(invocation_expression function: (_) @callee) @reference.call
(object_creation_expression type: (_) @callee) @reference.new
(base_list (_) @reference.inherits)

(using_directive) @import
(variable_declaration) @local
(parameter) @param
(return_statement (_) @return)
