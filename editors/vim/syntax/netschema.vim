" Vim syntax file for netschema replication schemas (*.netschema); the language is in idl/SPEC.md.
if exists('b:current_syntax')
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

" Operators first: comments starting with '/' are defined later and win at the same position.
syn match netschemaOperator "[-+*/%=]"

" Keywords, and the name each declaration keyword introduces (also on the next line).
syn keyword netschemaKeyword package nextgroup=netschemaPackageName skipwhite skipempty
syn keyword netschemaInclude import
syn keyword netschemaStorage const nextgroup=netschemaConstName skipwhite skipempty
syn keyword netschemaStorage extern
syn keyword netschemaStructure struct component input rpc union nextgroup=netschemaTypeName skipwhite skipempty
syn keyword netschemaStructure enum nextgroup=netschemaEnumName skipwhite skipempty
syn keyword netschemaBoolean true false
syn match netschemaPackageName "\h\w*\%(\s*\.\s*\h\w*\)*" contained
syn match netschemaConstName "\h\w*" contained
syn match netschemaTypeName "\h\w*" contained
syn match netschemaEnumName "\h\w*" contained nextgroup=netschemaEnumBase,netschemaEnumBody skipwhite skipempty
syn match netschemaEnumBase ":\s*\h\w*" contained contains=netschemaType nextgroup=netschemaEnumBody skipwhite skipempty

" An enum's values: the names after '{' or ',' (not the expressions after '=').
syn region netschemaEnumBody matchgroup=netschemaBrace start="{" end="}" contained
      \ contains=netschemaEnumMember,netschemaNumber,netschemaFloat,netschemaNumberError,netschemaOperator,
      \ netschemaLineComment,netschemaDocComment,netschemaBlockComment,netschemaAttribute
syn match netschemaEnumMember "\%(\%([{,]\|^\)\s*\)\@<=\h\w*" contained

" Field types: a name followed by the field's name; a type argument followed by ','; built-in types.
syn match netschemaUserType "\<\h\w*\%(\s*\.\s*\h\w*\)*\ze\s\+\h\w*\s*\%([=@;]\|\[\|$\)"
syn match netschemaUserType "\%(<[^<>;={}]*\)\@<=\<\h\w*\%(\s*\.\s*\h\w*\)*\ze\s*,"
syn match netschemaType "\<\%(bool\|[iu]\%(8\|16\|32\|64\)\|f32\|f64\|vec[234]\|quat\|entity\)\>"
syn match netschemaType "\<\%(string\|bytes\|list\|map\|set\|fastarray\)\>\ze\s*<"

" A field's name: after its type (a word or '>'), before '=', '@', ';' or an array's '['.
syn match netschemaField "\%([[:alnum:]_>]\s\+\)\@<=\h\w*\ze\s*\%([=@;]\|\[\|//\|/\*\|$\)"

" Attributes, and the bare words of @smooth and @sync inside their arguments.
syn match netschemaAttribute "@\s*\h\w*" nextgroup=netschemaAttrArgs skipwhite
syn region netschemaAttrArgs matchgroup=netschemaParen start="(" end=")" contained
      \ contains=netschemaAttrValue,netschemaNumber,netschemaFloat,netschemaNumberError,netschemaOperator,
      \ netschemaString,netschemaBoolean,netschemaParens,netschemaBlockComment
syn region netschemaParens matchgroup=netschemaParen start="(" end=")" contained transparent
syn keyword netschemaAttrValue clamp interpolate extrapolate all owner others none predicted interpolated custom contained

" Numbers: later definitions win, so a malformed number (12abc, 0x, 1.5f) is an error only when
" nothing else matches.
syn match netschemaNumberError "\<\d[[:alnum:]_.]*"
syn match netschemaNumber "\<\d[0-9_]*\>"
syn match netschemaNumber "\<0[xX]\x[[:xdigit:]_]*\>"
syn match netschemaNumber "\<0[bB][01][01_]*\>"
syn match netschemaFloat "\<\d[0-9_]*\%(\.\d[0-9_]*\%([eE][-+]\=\d\+\)\=\|[eE][-+]\=\d\+\)\>"

" Strings end at the closing quote or the end of the line.
syn region netschemaString start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ contains=netschemaEscapeError,netschemaEscape,@Spell
syn match netschemaEscapeError "\\." contained
syn match netschemaEscape "\\\%([ntr0\\"']\|x\x\x\|u{\x\{1,6}}\)" contained

" Comments: '///' is a doc comment, '////' and more are plain ones.
syn keyword netschemaTodo TODO FIXME XXX NOTE contained
syn match netschemaLineComment "//.*$" contains=netschemaTodo,@Spell
syn match netschemaDocComment "///\%(/\)\@!.*$" contains=netschemaTodo,@Spell
syn region netschemaBlockComment start="/\*" end="\*/" contains=netschemaTodo,@Spell
syn sync ccomment netschemaBlockComment minlines=50

hi def link netschemaKeyword      Keyword
hi def link netschemaInclude      Include
hi def link netschemaStorage      StorageClass
hi def link netschemaStructure    Structure
hi def link netschemaBoolean      Boolean
hi def link netschemaPackageName  Identifier
hi def link netschemaConstName    Constant
hi def link netschemaTypeName     Typedef
hi def link netschemaEnumName     Typedef
hi def link netschemaEnumMember   Constant
hi def link netschemaType         Type
hi def link netschemaUserType     Type
hi def link netschemaField        Identifier
hi def link netschemaAttribute    PreProc
hi def link netschemaAttrValue    Constant
hi def link netschemaNumber       Number
hi def link netschemaFloat        Float
hi def link netschemaNumberError  Error
hi def link netschemaString       String
hi def link netschemaEscape       SpecialChar
hi def link netschemaEscapeError  Error
hi def link netschemaOperator     Operator
hi def link netschemaLineComment  Comment
hi def link netschemaBlockComment Comment
hi def link netschemaDocComment   SpecialComment
hi def link netschemaTodo         Todo

let b:current_syntax = 'netschema'
let &cpo = s:cpo_save
unlet s:cpo_save
