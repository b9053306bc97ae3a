" Vim filetype plugin for netschema: comments, include paths, :make through netschemac, and
" :NetschemaFormat (netschemac --format), before each write when g:netschema_format_on_save or
" b:netschema_format_on_save is set.
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

" Formats the buffer through a temporary file (imports are searched in the buffer's directory
" first, then in g:netschemac_args' -I directories). A schema with errors is left as it is and
" the first error is shown. Returns 1 when the buffer is formatted.
function! s:Format() abort
  let tmp = tempname() . '.netschema'
  call writefile(getline(1, '$'), tmp)
  let out = system(get(g:, 'netschemac_command', 'netschemac') . ' --format --write '
        \ . get(g:, 'netschemac_args', '') . ' -I ' . shellescape(expand('%:p:h')) . ' ' . shellescape(tmp))
  let status = v:shell_error
  let lines = status ? [] : readfile(tmp)
  call delete(tmp)
  if status
    echohl WarningMsg
    echomsg 'netschemac --format failed (exit status ' . status . '): ' . get(split(out, "\n"), 0, '')
    echohl None
    return 0
  endif
  if lines !=# getline(1, '$')
    let view = winsaveview()
    call setline(1, lines)
    if line('$') > len(lines)
      silent execute (len(lines) + 1) . ',$delete _'
    endif
    call winrestview(view)
  endif
  return 1
endfunction

command! -buffer -bar NetschemaFormat call s:Format()
augroup netschema_format
  autocmd! * <buffer>
  autocmd BufWritePre <buffer>
        \ if get(b:, 'netschema_format_on_save', get(g:, 'netschema_format_on_save', 0)) | call s:Format() | endif
augroup END

let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< suffixesadd< include< matchpairs<'
      \ . ' makeprg< errorformat< | unlet! b:current_compiler'
      \ . ' | execute "autocmd! netschema_format * <buffer>" | silent! delcommand -buffer NetschemaFormat'
