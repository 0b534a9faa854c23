; Tags query for Ruby (tree-sitter-ruby); vocabulary as in typescript.scm.
(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

(call method: (_)) @reference.call
; A bare identifier statement is a receiver-less method call (`hello`).
(body_statement (identifier) @reference.call)
(class superclass: (superclass (_) @reference.inherits))
(call method: (identifier) @_inc (#match? @_inc "^(include|extend|prepend)$") arguments: (argument_list [(constant) (scope_resolution)] @reference.mixes_in))

(call method: (identifier) @_req (#match? @_req "^(require|require_relative|load)$")) @import
(assignment) @local
