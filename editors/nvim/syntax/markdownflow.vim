" MarkdownFlow: Markdown syntax plus memory markers and interactions (the markers come
" from syntax/markdownflow/markers.vim, which Vim loads after this file).
if exists("b:current_syntax")
  finish
endif
runtime! syntax/markdown.vim
unlet! b:current_syntax

let b:current_syntax = "markdownflow"
