; Tags query for Java (tree-sitter-java); vocabulary as in typescript.scm.
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor

(method_invocation) @reference.call
(explicit_constructor_invocation) @reference.call
(object_creation_expression type: (_) @callee) @reference.new
(superclass (_) @reference.extends)
(super_interfaces (type_list (_) @reference.implements))
(extends_interfaces (type_list (_) @reference.extends))
(type_identifier) @reference.type
(scoped_type_identifier) @reference.type

(import_declaration) @import
(local_variable_declaration) @local
(formal_parameter) @param
(spread_parameter) @param
(field_declaration) @local
(constant_declaration) @local
(enhanced_for_statement) @local
(return_statement (_) @return)
