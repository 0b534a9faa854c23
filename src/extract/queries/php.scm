; Tags query for PHP (tree-sitter-php); vocabulary as in typescript.scm.
(namespace_definition name: (_) @name) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method

(function_call_expression function: (_) @callee) @reference.call
(member_call_expression) @reference.call
(nullsafe_member_call_expression) @reference.call
(scoped_call_expression) @reference.call
(object_creation_expression) @reference.new
(base_clause (name) @reference.extends)
(base_clause (qualified_name) @reference.extends)
(class_interface_clause (name) @reference.implements)
(class_interface_clause (qualified_name) @reference.implements)
(use_declaration (name) @reference.mixes_in)

(namespace_use_declaration) @import
(assignment_expression) @local
(simple_parameter) @param
(property_promotion_parameter) @param
(return_statement (_) @return)
