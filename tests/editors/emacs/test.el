;;; test.el --- Tests editors/emacs/netschema-mode.el -*- lexical-binding: t; -*-

;;; Commentary:

;; Byte-compiles the mode with warnings as errors, then checks faces in the corpus, indentation,
;; and that compilation mode finds netschemac's real diagnostics and visits the right columns.
;; Run by tests/editors/run.sh:
;;   NETSCHEMAC=... EMACS_TEST_DIR=<scratch dir> emacs --batch -Q -l test.el

;;; Code:

(require 'bytecomp)
(require 'cl-lib)
(require 'compile)

(defvar nst-dir (file-name-directory (or load-file-name buffer-file-name)))
(defvar nst-corpus (expand-file-name "../corpus/" nst-dir))
(defvar nst-root (expand-file-name "../../../" nst-dir))
(defvar nst-netschemac (getenv "NETSCHEMAC"))
(defvar nst-scratch (file-name-as-directory (getenv "EMACS_TEST_DIR")))
(defvar nst-passed 0)
(defvar nst-failures nil)

(defun nst-check (ok what &rest args)
  "Count OK as a pass, or record WHAT (a format string with ARGS) as a failure."
  (if ok
      (cl-incf nst-passed)
    (push (apply #'format what args) nst-failures)))

;; 1. Byte-compile into the scratch directory, warnings being errors, and load the result.
(let* ((src (expand-file-name "editors/emacs/netschema-mode.el" nst-root))
       (elc (expand-file-name "netschema-mode.elc" nst-scratch))
       (byte-compile-dest-file-function (lambda (_) elc))
       (byte-compile-error-on-warn t)
       (ok (ignore-errors (byte-compile-file src))))
  (nst-check ok "byte-compile-file with byte-compile-error-on-warn failed:\n%s"
             (if (get-buffer "*Compile-Log*")
                 (with-current-buffer "*Compile-Log*" (buffer-string))
               ""))
  (load (if ok elc src) nil t))

(defun nst-visit (name)
  "Visit corpus file NAME, fontified."
  (find-file (expand-file-name name nst-corpus))
  (font-lock-ensure)
  (current-buffer))

;; 2. Faces: emacs/NAME.expect holds "line:col face" (1-based character columns, "-" for none).
(dolist (expect (directory-files nst-dir t "\\.expect\\'"))
  (let* ((name (concat (file-name-base expect) ".netschema"))
         (buf (nst-visit name))
         (n 0))
    (nst-check (eq major-mode 'netschema-mode) "%s opened in %s, not netschema-mode" name major-mode)
    (dolist (text (split-string (with-temp-buffer (insert-file-contents expect) (buffer-string)) "\n"))
      (cl-incf n)
      (unless (string-match-p "\\`[ \t]*\\(?:#.*\\)?\\'" text)
        (if (not (string-match "\\`\\([0-9]+\\):\\([0-9]+\\)[ \t]+\\([^ \t]+\\)[ \t]*\\'" text))
            (nst-check nil "%s:%d: cannot read %S" (file-name-nondirectory expect) n text)
          (let* ((line (string-to-number (match-string 1 text)))
                 (col (string-to-number (match-string 2 text)))
                 (want (match-string 3 text))
                 (face (with-current-buffer buf
                         (save-excursion
                           (goto-char (point-min))
                           (forward-line (1- line))
                           (forward-char (1- col))
                           (get-text-property (point) 'face))))
                 (faces (if (listp face) face (list face))))
            (nst-check (if (equal want "-") (null face) (memq (intern want) faces))
                       "%s:%d: %s:%d:%d has face %S, want %s"
                       (file-name-nondirectory expect) n name line col face want)))))
    (kill-buffer buf)))

;; 3. Indentation: flatten a schema, indent it, and compare with the original.
(dolist (name '("declarations" "types" "attributes" "common"))
  (let* ((file (expand-file-name (concat name ".netschema") nst-corpus))
         (want (with-temp-buffer (insert-file-contents file) (buffer-string)))
         (got (with-temp-buffer
                (insert (replace-regexp-in-string "^[ \t]+" "" want))
                (netschema-mode)
                (setq indent-tabs-mode nil)
                (indent-region (point-min) (point-max))
                (buffer-string))))
    (let* ((got-lines (split-string got "\n"))
           (want-lines (split-string want "\n"))
           (i (cl-mismatch got-lines want-lines :test #'equal)))
      (nst-check (null i) "indent %s.netschema:%d: got %S, want %S" name (1+ (or i 0))
                 (nth (or i 0) got-lines) (nth (or i 0) want-lines)))))

;; 4. The compilation regexp alone, on what netschemac prints for corpus/invalid.netschema.
(defun nst-messages ()
  "The compilation messages of the current buffer, one per line: (file line col type)."
  (compilation--ensure-parse (point-max))
  (goto-char (point-min))
  (let (msgs)
    (while (not (eobp))
      (let ((msg (get-text-property (point) 'compilation-message)))
        (when (and msg (compilation--message->loc msg))
          (let ((loc (compilation--message->loc msg)))
            (push (list (caar (compilation--loc->file-struct loc))
                        (compilation--loc->line loc)
                        (compilation--loc->col loc)
                        (compilation--message->type msg))
                  msgs))))
      (forward-line 1))
    (nreverse msgs)))

(defvar nst-want-messages
  ;; type: 2 error, 1 warning, 0 info (a note); col is the column from netschemac
  '(("invalid.netschema" 4 1 1) ("invalid.netschema" 7 14 2) ("invalid.netschema" 8 15 2)
    ("invalid.netschema" 11 8 2) ("invalid.netschema" 6 8 0) ("invalid.netschema" 14 25 2)
    ("invalid.netschema" 15 13 2) ("invalid.netschema" 16 22 2) ("invalid.netschema" 16 36 2)))

(let* ((default-directory nst-corpus)
       (out (with-temp-buffer
              (let ((status (call-process nst-netschemac nil t nil "--check" "invalid.netschema")))
                (nst-check (eql status 1) "netschemac on invalid.netschema exited %s" status))
              (buffer-string))))
  (with-current-buffer (get-buffer-create "*netschemac output*")
    (setq default-directory nst-corpus)
    (insert out)
    (compilation-mode)
    (setq-local compilation-error-regexp-alist '(netschema))
    (let ((got (nst-messages)))
      (nst-check (equal got nst-want-messages) "compilation messages:\n  got  %S\n  want %S"
                 got nst-want-messages))
    ;; Visiting a message lands on the right character, past a tab (line 8) and an 'é' (line 14).
    (dolist (want '((8 "@range") (14 "\\\\q") (11 "Item")))
      (goto-char (point-min))
      (re-search-forward (format "^invalid\\.netschema:%d:" (car want)))
      (beginning-of-line)
      (save-window-excursion
        (compile-goto-error)
        (nst-check (and (eq major-mode 'netschema-mode)
                        (= (line-number-at-pos) (car want))
                        (looking-at-p (cadr want)))
                   "visiting the error on line %d lands at %s:%d:%d on %S"
                   (car want) (buffer-name) (line-number-at-pos) (current-column)
                   (buffer-substring (point) (line-end-position)))))))

;; 5. netschema-compile for real: a compilation buffer without colour codes, whose errors parse.
(with-current-buffer (find-file (expand-file-name "invalid.netschema" nst-corpus))
  (nst-check (equal compile-command "NO_COLOR=1 netschemac --check invalid.netschema")
             "compile-command is %S" compile-command)
  (let* ((netschema-compiler nst-netschemac)
         (buf (netschema-compile))
         (deadline (+ (float-time) 30)))
    ;; Until the sentinel's closing line: output can still be unread when the process has
    ;; exited, and the process can be gone before we look at it.
    (while (and (< (float-time) deadline)
                (not (with-current-buffer buf
                       (save-excursion
                         (goto-char (point-min))
                         (re-search-forward "^Compilation \\(?:finished\\|exited\\)" nil t)))))
      (accept-process-output nil 0.1))
    (with-current-buffer buf
      (nst-check (not (string-match-p "\e\\[" (buffer-string))) "colour codes in *compilation*:\n%s"
                 (buffer-string))
      (let ((got (nst-messages)))
        (nst-check (equal got nst-want-messages) "netschema-compile messages:\n  got  %S\n  want %S"
                   got nst-want-messages)))))

;; 6. Formatting: netschema-format-buffer lays a buffer out as netschemac --format does, leaves a
;; schema with errors alone, and runs before saving only with netschema-format-on-save.
(let ((netschema-compiler nst-netschemac)
      (messy "package p;\ncomponent C {   u8 a @smooth(interpolate)@range(0,9);\n  u16 bb; }\n")
      (tidy "package p;\n\ncomponent C {\n    u8  a @range(0, 9) @smooth(interpolate);\n    u16 bb;\n}\n")
      (bad "package p;\ncomponent C { u8 a @quantize(1); }\n"))
  (with-temp-buffer
    (insert messy)
    (netschema-mode)
    (nst-check (eq (netschema-format-buffer) t) "netschema-format-buffer failed on a valid schema")
    (nst-check (equal (buffer-string) tidy) "formatted buffer:\n%s" (buffer-string)))
  (with-temp-buffer
    (insert bad)
    (netschema-mode)
    (nst-check (null (netschema-format-buffer)) "netschema-format-buffer succeeded on a schema with errors")
    (nst-check (equal (buffer-string) bad) "a schema with errors was changed:\n%s" (buffer-string)))
  (let ((file (expand-file-name "save.netschema" nst-scratch)))
    (dolist (on '(nil t))
      (with-current-buffer (find-file-noselect file)
        (erase-buffer)
        (insert messy)
        (setq-local netschema-format-on-save on)
        (save-buffer)
        (nst-check (equal (with-temp-buffer (insert-file-contents file) (buffer-string)) (if on tidy messy))
                   "saved with netschema-format-on-save %s:\n%s" on (buffer-string))
        (set-buffer-modified-p nil)
        (kill-buffer)))))

(dolist (f (reverse nst-failures))
  (princ (format "FAIL emacs: %s\n" f)))
(princ (format "emacs: %d passed, %d failed\n" nst-passed (length nst-failures)))
(kill-emacs (if nst-failures 1 0))

;;; test.el ends here
