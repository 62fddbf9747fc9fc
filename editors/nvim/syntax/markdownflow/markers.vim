" MarkdownFlow memory markers and interaction openers, on top of Markdown syntax.
" Loaded for the markdownflow syntax, and by the mfls plugin for Markdown files of a
" course (a folder holding mfcourse.toml).
syntax match markdownflowMarker /\\\@<!%\?{{\%(\%(}}\)\@!.\)\{-1,}}}/ containedin=ALLBUT,markdownCode,markdownCodeBlock,htmlComment
syntax match markdownflowInteraction /\\\@<!?\[/ containedin=ALLBUT,markdownCode,markdownCodeBlock,htmlComment

highlight default link markdownflowMarker Identifier
highlight default link markdownflowInteraction Special
