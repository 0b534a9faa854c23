; Tags query for Ruby (tree-sitter-ruby); vocabulary as in typescript.scm.
(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

; `require 'x'` and `include M` are read off each call (RUBY_SPEC.callStatements): a pattern that
; waits for the method after the receiver is quadratic in the length of a call chain.
(call) @reference.call
; A bare identifier statement is a receiver-less method call (`hello`).
(body_statement (identifier) @reference.call)
(superclass (_) @reference.inherits)

(assignment) @local
