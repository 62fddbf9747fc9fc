" MarkdownFlow: Markdown syntax plus memory markers and interactions.
if exists("b:current_syntax")
  finish
endif
runtime! syntax/markdown.vim
unlet! b:current_syntax

syntax match markdownflowMarker /\\\@<!{{\%(\%(}}\)\@!.\)\{-1,}}}/ containedin=ALLBUT,markdownCode,markdownCodeBlock,htmlComment
syntax match markdownflowInteraction /\\\@<!?\[/ containedin=ALLBUT,markdownCode,markdownCodeBlock,htmlComment

highlight default link markdownflowMarker Identifier
highlight default link markdownflowInteraction Special

let b:current_syntax = "markdownflow"
