;;; emacs_cold_start.el --- eglot from a cold start: every diagnostics list it is given  -*- lexical-binding: t; -*-
;; Opens lessons of a course the server has never indexed and records, per document URI,
;; every `textDocument/publishDiagnostics' eglot receives (what flymake then shows), so
;; that the test compares the first with `mfls check''s problems.
;; Environment: MFLS_SERVER_CMD (JSON list), MFLS_OPEN (JSON list of lesson files),
;; MFLS_RESULTS (where to write JSON), MFLS_WAIT_S.

(require 'json)
(require 'cl-lib)
(require 'markdown-mode)
(require 'eglot)
(require 'flymake)

(defvar cold-wait (string-to-number (or (getenv "MFLS_WAIT_S") "30")))
(defvar cold-published (make-hash-table :test 'equal) "URI -> diagnostics lists, newest first.")
(defvar cold-errors nil)

(defun cold-record (_server method &rest params)
  (when (eq method 'textDocument/publishDiagnostics)
    (let ((uri (plist-get params :uri)))
      (puthash uri (cons (plist-get params :diagnostics) (gethash uri cold-published))
               cold-published))))
(advice-add 'eglot-handle-notification :before #'cold-record)

(add-to-list 'eglot-server-programs
             `((markdown-mode gfm-mode) . ,(append (json-read-from-string (getenv "MFLS_SERVER_CMD")) nil)))
(defun cold-project (dir)
  (let ((root (locate-dominating-file dir "mfcourse.toml")))
    (and root (cons 'transient root))))
(add-hook 'project-find-functions #'cold-project)
(setq eglot-autoshutdown nil
      eglot-sync-connect nil
      make-backup-files nil
      create-lockfiles nil)

(defun cold-wait-for (seconds predicate)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun cold-main ()
  (let ((uris nil))
    (dolist (file (append (json-read-from-string (getenv "MFLS_OPEN")) nil))
      (find-file file)
      (markdown-mode)
      (unless (eglot-current-server)
        (apply #'eglot (eglot--guess-contact)))
      (unless (cold-wait-for cold-wait (lambda () (and (eglot-current-server) eglot--managed-mode)))
        (error "eglot does not manage %s" file))
      (push (eglot--path-to-uri buffer-file-name) uris))
    (unless (cold-wait-for cold-wait
                           (lambda () (cl-every (lambda (uri) (gethash uri cold-published)) uris)))
      (push (format "not every lesson was given diagnostics within %ss" cold-wait) cold-errors))
    ;; Long enough for the indexing to end and a corrected publish to arrive.
    (cold-wait-for 2 (lambda () nil))))

(condition-case err
    (cold-main)
  (error (push (format "error: %S" err) cold-errors)))
(let ((shown nil))
  (maphash (lambda (uri lists) (push (cons uri (vconcat (reverse lists))) shown)) cold-published)
  (with-temp-file (getenv "MFLS_RESULTS")
    (insert (json-encode `((shown . ,shown) (errors . ,(vconcat cold-errors)))))))
(condition-case nil
    (dolist (server (hash-table-values eglot--servers-by-project))
      (dolist (s server) (ignore-errors (eglot-shutdown s nil 3))))
  (error nil))
(kill-emacs 0)
