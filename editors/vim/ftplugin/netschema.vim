" Vim filetype plugin for netschema: comments, include paths, and :make through netschemac.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=//\ %s
setlocal comments=s1:/*,mb:*,ex:*/,:///,://
setlocal formatoptions-=t formatoptions+=croql
setlocal suffixesadd=.netschema
setlocal include=^\\s*import\\s*\"
setlocal matchpairs+=<:>
compiler netschemac

let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< suffixesadd< include< matchpairs<'
      \ . ' makeprg< errorformat< | unlet! b:current_compiler'
