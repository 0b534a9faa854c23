; Tags query for Python (tree-sitter-python); vocabulary as in typescript.scm.
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function

(call function: (_) @callee) @reference.call
(class_definition superclasses: (argument_list [(identifier) (attribute) (subscript)] @reference.inherits))
(type [(identifier) (attribute)] @reference.type)

(import_statement) @import
(import_from_statement) @import
(assignment) @local
(with_item value: (as_pattern)) @local
(except_clause value: (as_pattern) @local)
(parameters [(identifier) (typed_parameter) (default_parameter) (typed_default_parameter)] @param)
(return_statement (_) @return)
