;;; netschema-mode.el --- Edit netschema schemas -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "26.1"))
;; Keywords: languages

;;; Commentary:

;; A major mode for `.netschema' files, the replication schemas that
;; `netschemac' compiles into C (the language is described in idl/SPEC.md).
;;
;; - Highlighting: keywords, built-in types, declaration and field names,
;;   enum values, attributes, numbers, strings and their escapes, comments,
;;   and `///' doc comments apart from plain ones.
;; - Indentation: `netschema-indent-offset' per enclosing brace or paren.
;; - Comments: `//' and `/* */' for the comment commands.
;; - Compiling: `netschema-compile' (C-c C-c) and `compile-command' run
;;   `netschemac --check', and `next-error' visits what it reports.
;; - Formatting: `netschema-format-buffer' (C-c C-f) lays the buffer out with
;;   `netschemac --format'; with `netschema-format-on-save' it runs before
;;   each save.  A schema with errors is left as it is.
;;
;; Install: put this file on `load-path' and (require 'netschema-mode).

;;; Code:

(require 'compile)

(defgroup netschema nil
  "Editing netschema replication schemas."
  :group 'languages
  :prefix "netschema-")

(defcustom netschema-indent-offset 4
  "Columns of indentation per enclosing brace or parenthesis."
  :type 'integer
  :safe #'integerp)

(defcustom netschema-compiler "netschemac"
  "The netschemac program, for `netschema-compile' and `compile-command'."
  :type 'string)

(defcustom netschema-import-dirs nil
  "Import search directories, passed to netschemac as -I DIR in order."
  :type '(repeat directory))

(defcustom netschema-format-on-save nil
  "Format the buffer with `netschema-format-buffer' before saving it."
  :type 'boolean
  :safe #'booleanp)

(defface netschema-attribute-face '((t :inherit font-lock-preprocessor-face))
  "Face for attributes such as @quantize.")

(defface netschema-number-face '((t :inherit font-lock-constant-face))
  "Face for numbers.")

(defface netschema-escape-face '((t :inherit font-lock-builtin-face))
  "Face for escapes in strings, such as \\n and \\u{e9}.")

(defconst netschema-keywords
  '("package" "import" "const" "enum" "struct" "component" "input" "rpc" "extern"
    "union")
  "Keywords of the netschema language, less true and false.")

(defconst netschema-builtin-types
  '("bool" "i8" "u8" "i16" "u16" "i32" "u32" "i64" "u64" "f32" "f64"
    "vec2" "vec3" "vec4" "quat" "entity")
  "Built-in types that take no type arguments.")

(defconst netschema-generic-types
  '("string" "bytes" "list" "map" "set" "fastarray")
  "Built-in types written with type arguments, such as list<u32, 16>.")

(defconst netschema--ident "[A-Za-z_][A-Za-z0-9_]*"
  "An identifier.")

(defconst netschema--qname
  (concat netschema--ident "\\(?:[ \t]*\\.[ \t]*" netschema--ident "\\)*")
  "A name, qualified or not: game.core.Team.")

(defvar netschema-mode-syntax-table
  (let ((st (make-syntax-table)))
    (modify-syntax-entry ?/ ". 124" st)
    (modify-syntax-entry ?* ". 23b" st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?\r ">" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?\\ "\\" st)
    (modify-syntax-entry ?_ "w" st)
    (modify-syntax-entry ?' "." st)
    (dolist (c '(?@ ?< ?> ?= ?+ ?- ?% ?, ?\; ?: ?.))
      (modify-syntax-entry c "." st))
    st)
  "Syntax table for `netschema-mode': // and /* */ comments, strings.")

;;; Syntax

(defun netschema--syntax-propertize (start end)
  "End the strings left open at the end of their line, from START to END.
A netschema string never spans lines; an Emacs string would."
  (goto-char start)
  (funcall
   (syntax-propertize-rules
    ("\\(\"\\)\\(?:[^\"\\\n]\\|\\\\.\\)*\\(\n\\)"
     (1 (unless (nth 8 (save-excursion (syntax-ppss (match-beginning 1))))
          (string-to-syntax "|")))
     (2 (when (equal (get-text-property (match-beginning 1) 'syntax-table)
                     (string-to-syntax "|"))
          (string-to-syntax "|")))))
   start end))

(defun netschema--syntactic-face (state)
  "Face of the string or comment that parse STATE is in.
`///' starts a doc comment, but `////' a plain one."
  (cond ((nth 3 state) 'font-lock-string-face)
        ((save-excursion
           (goto-char (nth 8 state))
           (looking-at-p "///\\(?:[^/]\\|$\\)"))
         'font-lock-doc-face)
        (t 'font-lock-comment-face)))

(defun netschema--code-p (pos)
  "Non-nil when POS is outside strings and comments."
  (not (nth 8 (save-excursion (syntax-ppss pos)))))

(defconst netschema--block-keyword-re
  "[{};]\\|\\_<\\(struct\\|component\\|input\\|rpc\\|union\\|enum\\)\\_>"
  "What `netschema--block-kind' looks back for from a brace.")

(defun netschema--block-kind (pos)
  "Kind of the innermost block around POS: `record', `enum', `other' or nil."
  (let ((open (nth 1 (save-excursion (syntax-ppss pos)))))
    (when open
      (save-excursion
        (goto-char open)
        (if (not (eq (char-after) ?{))
            'other
          (let (found)
            (while (and (not found)
                        (re-search-backward netschema--block-keyword-re nil t))
              (when (netschema--code-p (point))
                (setq found (cond ((not (match-beginning 1)) 'other)
                                  ((equal (match-string 1) "enum") 'enum)
                                  (t 'record)))))
            (or found 'other)))))))

(defun netschema--matcher (regexp kind &optional resume)
  "A font-lock matcher for REGEXP in code inside a block of KIND.
With RESUME, the next search starts at the end of group 1."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (let ((beg (match-beginning 0)))
          (when (save-match-data
                  (and (netschema--code-p beg)
                       (eq (netschema--block-kind beg) kind)))
            (setq found t)
            (when resume
              (goto-char (match-end 1))))))
      found)))

(defun netschema--enum-member-matcher (limit)
  "Font-lock matcher for the names of enum values, up to LIMIT."
  (let ((re (concat "\\_<" netschema--ident "\\_>"))
        found)
    (while (and (not found) (re-search-forward re limit t))
      (let ((beg (match-beginning 0)))
        (when (save-match-data
                (and (netschema--code-p beg)
                     (eq (netschema--block-kind beg) 'enum)
                     (save-excursion
                       (goto-char beg)
                       (forward-comment (- (point)))
                       (memq (char-before) '(?{ ?,)))))
          (setq found t))))
    found))

(defun netschema--string-matcher (regexp)
  "A font-lock matcher for REGEXP inside strings."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (when (save-match-data
                (nth 3 (save-excursion (syntax-ppss (match-beginning 0)))))
          (setq found t)))
      found)))

(defconst netschema--escape-re
  (concat "\\\\\\(?:[ntr0\\\"']\\|x[0-9A-Fa-f][0-9A-Fa-f]"
          "\\|u{[0-9A-Fa-f]\\{1,6\\}}\\)")
  "A valid escape in a string.")

(defconst netschema--float-re
  (concat "\\_<[0-9][0-9_]*"
          "\\(?:\\.[0-9][0-9_]*\\(?:[eE][-+]?[0-9]+\\)?\\|[eE][-+]?[0-9]+\\)"
          "\\_>")
  "A floating-point literal.")

(defconst netschema-font-lock-keywords
  `(;; Declarations and the names they introduce.
    (,(concat "\\_<\\(struct\\|component\\|input\\|rpc\\|union\\|enum\\)\\_>[ \t]+\\("
              netschema--ident "\\)")
     (1 font-lock-keyword-face) (2 font-lock-type-face))
    (,(concat "\\_<\\(const\\)\\_>[ \t]+\\(" netschema--ident "\\)")
     (1 font-lock-keyword-face) (2 font-lock-constant-face))
    (,(concat "\\_<\\(package\\)\\_>[ \t]+\\(" netschema--qname "\\)")
     (1 font-lock-keyword-face) (2 font-lock-constant-face))
    (,(regexp-opt netschema-keywords 'symbols) . font-lock-keyword-face)
    ("\\_<\\(?:true\\|false\\)\\_>" . font-lock-constant-face)
    ;; Attributes, and the bare words of @sync and @smooth.
    ("@[ \t]*[A-Za-z_][A-Za-z0-9_]*" . 'netschema-attribute-face)
    ("@[ \t]*\\(?:sync\\|smooth\\)[ \t]*([ \t]*\\([a-z]+\\)"
     (1 font-lock-constant-face))
    ;; Field names, after the type and before '=', '@', ';' or an array's
    ;; '['.  First, as 'u8 u8;' is legal.
    (,(netschema--matcher
       (concat "[[:alnum:]_>][ \t]+\\(" netschema--ident "\\)"
               "[ \t]*\\(?:[=@;]\\|\\[\\|//\\|/\\*\\|$\\)")
       'record)
     1 font-lock-variable-name-face)
    ;; Types: built-in ones, a field's type before its name, and a type
    ;; argument before a ',' (the capacity is always the last argument).
    (,(regexp-opt netschema-builtin-types 'symbols) . font-lock-type-face)
    (,(concat (regexp-opt netschema-generic-types 'symbols) "[ \t]*<")
     1 font-lock-type-face)
    (,(netschema--matcher
       (concat "\\_<\\(" netschema--qname "\\)[ \t]+" netschema--ident
               "[ \t]*\\(?:[=@;]\\|\\[\\|$\\)")
       'record)
     1 font-lock-type-face)
    (,(netschema--matcher
       (concat "[<,][ \t]*\\(" netschema--qname "\\)[ \t]*,") 'record t)
     1 font-lock-type-face)
    (netschema--enum-member-matcher . font-lock-constant-face)
    ;; Numbers; one that runs into letters (12abc, 0x, 1.5f) is an error.
    (,netschema--float-re . 'netschema-number-face)
    ("\\_<0[xX][0-9A-Fa-f][0-9A-Fa-f_]*\\_>" . 'netschema-number-face)
    ("\\_<0[bB][01][01_]*\\_>" . 'netschema-number-face)
    ("\\_<[0-9][0-9_]*\\_>" . 'netschema-number-face)
    ("\\_<[0-9][[:alnum:]_.]*" . font-lock-warning-face)
    ;; Escapes in strings; an unknown one is an error.
    (,(netschema--string-matcher "\\\\.") (0 font-lock-warning-face t))
    (,(netschema--string-matcher netschema--escape-re)
     (0 'netschema-escape-face t)))
  "Font-lock keywords for `netschema-mode'.")

;;; Indentation

(defun netschema-indent-line ()
  "Indent the line by `netschema-indent-offset' per enclosing brace or paren.
Lines inside block comments are left as they are."
  (interactive)
  (let ((indent
         (save-excursion
           (back-to-indentation)
           (let ((ppss (syntax-ppss)))
             (unless (nth 4 ppss)
               (* netschema-indent-offset
                  (max 0 (- (car ppss)
                            (if (looking-at-p "[])}]") 1 0))))))))
        (offset (- (current-column) (current-indentation))))
    (when indent
      (indent-line-to indent)
      (when (> offset 0)
        (move-to-column (+ indent offset))))))

;;; Compiling

(defun netschema-compile-command (file)
  "Return the shell command to check FILE with netschemac.
NO_COLOR=1: `compile' runs it on a terminal, where it would use colour."
  (mapconcat #'identity
             (append (list "NO_COLOR=1"
                           (shell-quote-argument netschema-compiler)
                           "--check")
                     (mapcan (lambda (dir)
                               (list "-I" (shell-quote-argument
                                           (expand-file-name dir))))
                             (copy-sequence netschema-import-dirs))
                     (list (shell-quote-argument file)))
             " "))

(defun netschema-compile ()
  "Check the current schema with netschemac in a compilation buffer."
  (interactive)
  (unless buffer-file-name
    (user-error "This buffer is not visiting a file"))
  (when (buffer-modified-p)
    (save-buffer))
  (compile (netschema-compile-command
            (file-name-nondirectory buffer-file-name))))

(defconst netschema-compilation-regexp
  '(netschema
    "^\\([^ \t\n:][^\n:]*\\):\\([0-9]+\\):\\([0-9]+\\): \
\\(?:error\\|\\(warning\\)\\|\\(note\\)\\): "
    1 2 3 (4 . 5))
  "How `compilation-mode' finds netschemac's messages.
They are `file:line:col: error|warning|note: message', with columns
counted in characters from 1, a tab being one.")

(add-to-list 'compilation-error-regexp-alist-alist netschema-compilation-regexp)
(add-to-list 'compilation-error-regexp-alist 'netschema)

;;; Formatting

(defun netschema-format-buffer ()
  "Lay the buffer out in the canonical style with `netschemac --format'.
The buffer is formatted through a temporary file; its own directory is
searched for imports first, as netschemac would.  When netschemac
reports errors, the buffer is left unchanged and the errors are shown."
  (interactive)
  (let* ((tmp (make-temp-file "netschema" nil ".netschema"))
         (dir (if buffer-file-name
                  (file-name-directory buffer-file-name)
                default-directory))
         (errors (get-buffer-create "*netschemac format*"))
         (coding-system-for-write 'utf-8-unix)
         (coding-system-for-read 'utf-8-unix))
    (unwind-protect
        (progn
          (write-region nil nil tmp nil 'silent)
          (with-current-buffer errors (let ((inhibit-read-only t)) (erase-buffer)))
          (let ((status (apply #'call-process netschema-compiler nil errors nil
                               (append (list "--format" "--write"
                                             "-I" (expand-file-name dir))
                                       (mapcan (lambda (d)
                                                 (list "-I" (expand-file-name d)))
                                               (copy-sequence netschema-import-dirs))
                                       (list tmp)))))
            (if (not (eql status 0))
                (progn
                  (message "netschemac --format failed (exit status %s): see %s"
                           status (buffer-name errors))
                  nil)
              (let ((formatted (generate-new-buffer " *netschema formatted*")))
                (unwind-protect
                    (progn
                      (with-current-buffer formatted (insert-file-contents tmp))
                      (unless (zerop (compare-buffer-substrings
                                      nil nil nil formatted nil nil))
                        (replace-buffer-contents formatted)))
                  (kill-buffer formatted)))
              t)))
      (delete-file tmp))))

(defun netschema--format-before-save ()
  "Run `netschema-format-buffer' when `netschema-format-on-save' is set."
  (when netschema-format-on-save
    (netschema-format-buffer)))

;;; The mode

(defvar netschema-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'netschema-compile)
    (define-key map (kbd "C-c C-f") #'netschema-format-buffer)
    map)
  "Keymap for `netschema-mode'.")

;;;###autoload
(define-derived-mode netschema-mode prog-mode "netschema"
  "Major mode for netschema replication schemas (.netschema files).

\\{netschema-mode-map}"
  :syntax-table netschema-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)[ \t]*")
  (setq-local comment-multi-line nil)
  (setq-local syntax-propertize-function #'netschema--syntax-propertize)
  (setq-local font-lock-defaults
              '(netschema-font-lock-keywords
                nil nil nil nil
                (font-lock-syntactic-face-function
                 . netschema--syntactic-face)))
  (setq-local indent-line-function #'netschema-indent-line)
  (setq-local electric-indent-chars
              (append '(?{ ?} ?\( ?\)) electric-indent-chars))
  ;; netschemac counts columns in characters, a tab as one.
  (setq-local compilation-error-screen-columns nil)
  (add-hook 'before-save-hook #'netschema--format-before-save nil t)
  (when buffer-file-name
    (setq-local compile-command
                (netschema-compile-command
                 (file-name-nondirectory buffer-file-name)))))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.netschema\\'" . netschema-mode))

(provide 'netschema-mode)

;;; netschema-mode.el ends here
