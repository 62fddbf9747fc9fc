;;; emacs_e2e.el --- drive eglot against the real mfls server, in batch mode  -*- lexical-binding: t; -*-
;; Environment: MFLS_COURSE, MFLS_SERVER_CMD (JSON list), MFLS_RESULTS, MFLS_WAIT_S.
;; Every check runs under condition-case; results go to MFLS_RESULTS as JSON.

(require 'json)
(require 'cl-lib)
(require 'subr-x)
(require 'markdown-mode)
(require 'eglot)
(require 'xref)
(require 'flymake)

(defvar mfls-e2e-results nil)
(defvar mfls-e2e-course (file-name-as-directory (getenv "MFLS_COURSE")))
(defvar mfls-e2e-wait (string-to-number (or (getenv "MFLS_WAIT_S") "20")))
(defvar mfls-e2e-rename-provider nil)

(defun mfls-e2e-record (name ok detail)
  (push `((name . ,name) (ok . ,(if ok t :json-false)) (detail . ,(format "%s" detail)))
        mfls-e2e-results))

(defun mfls-e2e-wait-for (what predicate)
  "Poll PREDICATE while serving process output; its value, or an error naming WHAT."
  (let ((deadline (+ (float-time) mfls-e2e-wait))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value (error "Timed out after %ss waiting for %s" mfls-e2e-wait what))))

;; The snippet the README gives, plus a project root at the nearest mfcourse.toml.
(add-to-list 'eglot-server-programs
             `((markdown-mode gfm-mode) . ,(append (json-read-from-string (getenv "MFLS_SERVER_CMD")) nil)))
(defun mfls-e2e-project (dir)
  (let ((root (locate-dominating-file dir "mfcourse.toml")))
    (and root (cons 'transient root))))
(add-hook 'project-find-functions #'mfls-e2e-project)
(setq eglot-autoshutdown nil
      eglot-sync-connect nil
      make-backup-files nil
      create-lockfiles nil)

(defun mfls-e2e-open (relative)
  (find-file (expand-file-name relative mfls-e2e-course))
  (markdown-mode)
  (unless (eglot-current-server)
    (apply #'eglot (eglot--guess-contact)))
  (mfls-e2e-wait-for "eglot to manage the buffer"
                     (lambda () (and (eglot-current-server) eglot--managed-mode)))
  (current-buffer))

(defun mfls-e2e-goto (needle offset)
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (+ (match-beginning 0) offset)))

(defun mfls-e2e-check-attach ()
  (mfls-e2e-open "lessons/02-first-program.md")
  (let* ((server (eglot-current-server))
         (root (project-root (eglot--project server)))
         (caps (eglot--capabilities server)))
    (setq mfls-e2e-rename-provider (and (plist-get caps :renameProvider) t))
    (mfls-e2e-record "attach" (file-equal-p root mfls-e2e-course)
                     (format "root=%s rename=%s" root mfls-e2e-rename-provider))))

(defun mfls-e2e-check-diagnostics ()
  (mfls-e2e-open "lessons/03-practice.md")
  (let* ((line (save-excursion (mfls-e2e-goto "{{ }}" 0) (line-number-at-pos)))
         (found (mfls-e2e-wait-for
                 "an error diagnostic on the empty marker"
                 (lambda ()
                   (flymake-start)
                   (cl-find-if (lambda (d)
                                 (and (eq (flymake-diagnostic-type d) 'eglot-error)
                                      (= line (line-number-at-pos (flymake-diagnostic-beg d)))))
                               (flymake-diagnostics))))))
    (mfls-e2e-record "diagnostics" t (flymake-diagnostic-text found))))

(defun mfls-e2e-check-hover ()
  (mfls-e2e-open "lessons/02-first-program.md")
  (mfls-e2e-goto "{{ What would you like to learn? }}" 5)
  (let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                 (eglot--TextDocumentPositionParams)))
         (contents (plist-get hover :contents))
         (value (if (stringp contents) contents (or (plist-get contents :value) ""))))
    (mfls-e2e-record "hover"
                     (string-match-p "```[^\n]*\nWhat would you like to learn\\?\n```" value)
                     value)))

(defun mfls-e2e-check-definition ()
  (mfls-e2e-open "lessons/02-first-program.md")
  (mfls-e2e-goto "{{ What would you like to learn? }}" 5)
  (call-interactively #'xref-find-definitions)
  (mfls-e2e-wait-for "a jump to 01-welcome.md"
                     (lambda () (string-suffix-p "/lessons/01-welcome.md" (or buffer-file-name ""))))
  (mfls-e2e-record "definition" (= (line-number-at-pos) 7)
                   (format "%s:%d" buffer-file-name (line-number-at-pos))))

(defun mfls-e2e-check-completion ()
  (mfls-e2e-open "lessons/04-project.md")
  (goto-char (point-max))
  (insert "\nRecall {{")
  (let* ((capf (eglot-completion-at-point))
         (candidates (and capf (all-completions "" (nth 2 capf)))))
    (set-buffer-modified-p nil)
    (mfls-e2e-record "completion"
                     (cl-some (lambda (c) (string-match-p (regexp-quote "What would you like to learn?") c))
                              candidates)
                     (string-join candidates " | "))
    (revert-buffer t t)))

(defvar mfls-e2e-shown nil "Messages eglot showed the user, newest first.")
(advice-add 'eglot--message :before
            (lambda (format &rest args) (push (apply #'format-message format args) mfls-e2e-shown)))

(defun mfls-e2e-check-rename ()
  (if (not mfls-e2e-rename-provider)
      (mfls-e2e-record "rename" nil "skipped: the server does not advertise renameProvider")
    (mfls-e2e-open "lessons/03-practice.md")
    (mfls-e2e-goto "{{ How did the first program go? }}" 5)
    (setq mfls-e2e-shown nil)
    (eglot-rename "How was your first program?")
    (save-some-buffers t)
    ;; The stored-answers warning comes as window/showMessage right after the answer.
    (let ((warning (mfls-e2e-wait-for
                    "the stored-answers warning"
                    (lambda () (cl-find-if (lambda (m) (string-match-p "Stored answers" m))
                                           mfls-e2e-shown)))))
      (mfls-e2e-record "rename" t (format "applied and saved; shown: %s" warning)))))

(defun mfls-e2e-main ()
  (let ((checks '(("attach" . mfls-e2e-check-attach)
                  ("diagnostics" . mfls-e2e-check-diagnostics)
                  ("hover" . mfls-e2e-check-hover)
                  ("definition" . mfls-e2e-check-definition)
                  ("completion" . mfls-e2e-check-completion)
                  ("rename" . mfls-e2e-check-rename)))
        (attached t))
    (dolist (check checks)
      (if (not attached)
          (mfls-e2e-record (car check) nil "not run: the server did not attach")
        (condition-case err
            (funcall (cdr check))
          (error
           (mfls-e2e-record (car check) nil (format "error: %S" err))
           (when (equal (car check) "attach") (setq attached nil))))))))

(condition-case err
    (mfls-e2e-main)
  (error (mfls-e2e-record "main" nil (format "error: %S" err))))
(condition-case nil
    (dolist (server (hash-table-values eglot--servers-by-project))
      (dolist (s server) (ignore-errors (eglot-shutdown s nil 3))))
  (error nil))
(with-temp-file (getenv "MFLS_RESULTS")
  (insert (json-encode `((checks . ,(vconcat (reverse mfls-e2e-results)))))))
(kill-emacs 0)
