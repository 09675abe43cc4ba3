;;; redline.el --- Your editor as the AI coding CLIs' IDE, through Redline  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; Tells the AI coding CLIs connected to Redline (Gemini CLI, Qwen Code, Claude Code, Copilot
;; CLI) which files are open, which one is active, where the cursor is and what is selected;
;; `redline-mention' points them at lines; a buffer reloads when a review of its file is accepted.
;;
;; One `redline editor --stdio' per Emacs, JSON lines both ways (docs/editors.md).
;;
;;   (add-to-list 'load-path "/path/to/redline/editors/emacs")
;;   (require 'redline)
;;   (redline-mode 1)
;;
;; Commands: `redline-mention' (the region's lines, or the current line), `redline-review'
;; (shows the pending reviews in Redline's window), `redline-reject' (rejects the pending review
;; of this file, with an optional reason), `redline-start', `redline-stop'.

;;; Code:

(require 'json)
(require 'seq)
(require 'subr-x)

(defgroup redline nil
  "Tell the AI coding CLIs connected to Redline what the editor shows."
  :group 'tools
  :prefix "redline-")

(defcustom redline-command '("redline" "editor" "--stdio")
  "The command that opens the editor channel to the running Redline."
  :type '(repeat string))

(defcustom redline-debounce 0.1
  "Seconds of idle time before a changed context is sent."
  :type 'number)

(defconst redline--max-files 10 "Open files sent at most (the active one first).")
(defconst redline--max-selection-chars 16384 "Selected text sent at most, in characters.")
(defconst redline--max-ranges 64 "Ranges of one selection (a rectangle's lines) sent at most.")
(defconst redline--retry-seconds 5
  "A channel that ended is restarted on the next change at most this often.
Commands restart it at once.")
(defconst redline--reload-watch-seconds 10
  "How long after an accepted review to watch its file for the CLI's write.")
(defconst redline--reload-poll-seconds 0.2 "How often the accepted file is looked at.")

(defvar redline--process nil "The `redline editor --stdio' process.")
(defvar redline--partial "" "Output of the process not yet ended by a newline.")
(defvar redline--started-at nil "When the process was last started (a float time).")
(defvar redline--last-sent nil "The last context sent, to skip sending it again.")
(defvar redline--timer nil "The idle timer of a pending context.")
(defvar redline--next-id 0)
(defvar redline--pending (make-hash-table :test 'eql) "Callbacks of messages sent with an id.")
(defvar redline-last-error nil "Why the channel is down or a message failed, if it is or did.")
(defvar redline--last-shown nil "The last error shown, so a failing channel says it once.")
(defvar redline--ready nil "Whether Redline said `ready' on this process.")
(defvar redline--refusal nil "The error Redline answered instead of `ready', if any.")

;;;; The process

(defun redline--live-p ()
  "Whether the channel to Redline is up."
  (and redline--process (process-live-p redline--process)))

(defun redline--say (fmt &rest args)
  "Show FMT formatted with ARGS unless it is the message shown last.
A failing channel says so once."
  (let ((text (apply #'format fmt args)))
    (unless (equal text redline--last-shown)
      (setq redline--last-shown text)
      (message "Redline: %s" text))))

(defun redline--sentinel (proc _event)
  "Note why PROC, the channel, ended and say it once."
  (unless (process-live-p proc)
    (when (eq proc redline--process)
      (setq redline--process nil)
      (clrhash redline--pending)
      (let ((status (process-exit-status proc)))
        (setq redline-last-error
              (cond (redline--refusal)
                    ((= status 127) (format "cannot run %s" (car redline-command)))
                    (t (format "%s exited with status %d" (car redline-command) status))))
        (redline--say "not connected (%s)" redline-last-error)))))

(defun redline--filter (_proc output)
  "Split OUTPUT into lines and handle each whole one."
  (let ((lines (split-string (concat redline--partial output) "\n")))
    (setq redline--partial (car (last lines)))
    (dolist (line (butlast lines))
      (redline--on-line line))))

(defun redline--on-line (line)
  "Handle LINE from Redline; anything that is not a JSON object is ignored."
  (let ((msg (condition-case nil
                 (json-parse-string line :object-type 'alist :null-object nil :false-object nil)
               (error nil))))
    (when (and msg (listp msg) (consp (car msg)))
      (let* ((type (alist-get 'type msg))
             (id (alist-get 'id msg))
             (cb (and (numberp id) (gethash id redline--pending))))
        (when cb
          (remhash id redline--pending)
          (funcall cb msg))
        (cond
         ((equal type "ready")
          (setq redline--ready t redline-last-error nil redline--last-shown nil))
         ((equal type "error")
          (setq redline-last-error (or (alist-get 'message msg) (alist-get 'code msg)))
          (unless redline--ready (setq redline--refusal redline-last-error)))
         ((and (equal type "accepted") (stringp (alist-get 'path msg)))
          (redline--reload-when-written (alist-get 'path msg))))))))

(defun redline-start ()
  "Start the channel to Redline unless it is up.  Return non-nil when it is."
  (interactive)
  (unless (redline--live-p)
    (setq redline--started-at (float-time)
          redline--last-sent nil
          redline--partial ""
          redline--ready nil
          redline--refusal nil)
    (condition-case err
        (setq redline--process
              (make-process :name "redline"
                            :command redline-command
                            :connection-type 'pipe
                            :coding 'utf-8-unix
                            :noquery t
                            :stderr (get-buffer-create " *redline stderr*")
                            :filter #'redline--filter
                            :sentinel #'redline--sentinel))
      (error
       (setq redline--process nil)
       (setq redline-last-error
             (format "cannot run %s: %s" (car redline-command) (error-message-string err)))
       (redline--say "not connected (%s)" redline-last-error))))
  (redline--live-p))

(defun redline-stop ()
  "End the channel to Redline."
  (interactive)
  (when (redline--live-p)
    (let ((proc redline--process))
      (setq redline--process nil)
      (delete-process proc))))

(defun redline--send (msg &optional callback force)
  "Send MSG (an alist) as one JSON line.  Return non-nil when it was written.
CALLBACK gets Redline's answer to it.  Without FORCE a channel that
ended less than `redline--retry-seconds' ago is not restarted."
  (when (or (redline--live-p)
            (and (or force
                     (null redline--started-at)
                     (>= (- (float-time) redline--started-at) redline--retry-seconds))
                 (redline-start)))
    (when callback
      (setq redline--next-id (1+ redline--next-id))
      (puthash redline--next-id callback redline--pending)
      (setq msg (append msg `((id . ,redline--next-id)))))
    ;; A process that has just ended (Redline not running) closes the pipe: the
    ;; sentinel says why.
    (condition-case nil
        (progn (process-send-string redline--process (concat (json-encode msg) "\n")) t)
      (error nil))))

;;;; The context

(defun redline--file (buffer)
  "The absolute path BUFFER visits, or nil (also for a remote file)."
  (when-let ((name (and (buffer-live-p buffer) (buffer-file-name buffer))))
    (unless (file-remote-p name)
      (file-truename name))))

(defun redline--pos (pos)
  "POS as Redline's 1-based line and column (in characters)."
  (save-excursion
    (goto-char pos)
    `((line . ,(line-number-at-pos pos t)) (col . ,(1+ (- pos (line-beginning-position)))))))

(defun redline--ranges ()
  "The lines of an active `rectangle-mark-mode' rectangle as ranges, or nil.
Each with its text; empty ones are left out; at most `redline--max-ranges',
their texts together at most `redline--max-selection-chars' characters."
  (when (and (region-active-p) (bound-and-true-p rectangle-mark-mode))
    (let ((left redline--max-selection-chars)
          (count 0)
          (out nil))
      (dolist (b (funcall region-extract-function 'bounds))
        (when (and (< count redline--max-ranges) (> left 0) (< (car b) (cdr b)))
          (let ((text (buffer-substring-no-properties (car b) (cdr b))))
            (when (> (length text) left)
              (setq text (substring text 0 left)))
            (setq left (- left (length text))
                  count (1+ count))
            (push `((start . ,(redline--pos (car b))) (end . ,(redline--pos (cdr b)))
                    (text . ,text))
                  out))))
      (and out (vconcat (nreverse out))))))

(defun redline--selection (&optional ranges)
  "The active region of the current buffer, with its text, or nil.
With RANGES (a rectangle's), the selection spans them, their texts joined
by newlines."
  (cond
   ((> (length ranges) 0)
    (let ((text (mapconcat (lambda (r) (alist-get 'text r)) ranges "\n")))
      (when (> (length text) redline--max-selection-chars)
        (setq text (substring text 0 redline--max-selection-chars)))
      `((start . ,(alist-get 'start (aref ranges 0)))
        (end . ,(alist-get 'end (aref ranges (1- (length ranges)))))
        (text . ,text))))
   ((region-active-p)
    (let* ((beg (region-beginning))
           (end (region-end))
           (text (buffer-substring-no-properties beg end)))
      (when (> (length text) redline--max-selection-chars)
        (setq text (substring text 0 redline--max-selection-chars)))
      `((start . ,(redline--pos beg)) (end . ,(redline--pos end)) (text . ,text))))))

(defun redline--active-buffer ()
  "The buffer of the selected window (the one under the minibuffer)."
  (window-buffer (if (minibufferp (window-buffer)) (minibuffer-selected-window) (selected-window))))

(defun redline--context ()
  "The open files, most recently used first.
The active one comes with its cursor and selection."
  (let* ((active (redline--active-buffer))
         (seen nil)
         (files nil))
    (dolist (buf (cons active (buffer-list)))
      (let ((path (redline--file buf)))
        (when (and path (not (member path seen)) (< (length files) redline--max-files))
          (push path seen)
          (push (if (eq buf active)
                    (with-current-buffer buf
                      (let* ((ranges (redline--ranges))
                             (sel (redline--selection ranges)))
                        `((path . ,path) (active . t) (cursor . ,(redline--pos (point)))
                          ,@(and sel `((selection . ,sel)))
                          ,@(and ranges `((ranges . ,ranges))))))
                  `((path . ,path)))
                files))))
    (vconcat (nreverse files))))

(defun redline-flush ()
  "Send the context now if it changed."
  (setq redline--timer nil)
  (let* ((files (redline--context))
         (line (json-encode files)))
    (unless (and (equal line redline--last-sent) (redline--live-p))
      (when (redline--send `((type . "context") (files . ,files)))
        (setq redline--last-sent line)))))

(defun redline--changed (&rest _)
  "Send the context once Emacs has been idle for `redline-debounce' seconds."
  (when redline--timer (cancel-timer redline--timer))
  (setq redline--timer (run-with-idle-timer redline-debounce nil #'redline--flush-safely)))

(defun redline--flush-safely ()
  "Send the context; a failure is a message, never an error."
  (condition-case err
      (redline-flush)
    (error (redline--say "%s" (error-message-string err)))))

;;;; Reloading accepted files

(defun redline--file-state (path)
  "PATH's modification time and size, or nil."
  (when-let ((attrs (file-attributes path)))
    (list (file-attribute-modification-time attrs) (file-attribute-size attrs))))

(defun redline--revert (path)
  "Revert the unmodified, out-of-date buffers visiting PATH without asking."
  (dolist (buf (buffer-list))
    (when (and (equal (redline--file buf) path)
               (not (buffer-modified-p buf))
               (not (verify-visited-file-modtime buf)))
      (with-current-buffer buf
        (revert-buffer t t t)))))

(defun redline--reload-when-written (path)
  "Watch PATH for the CLI's write after an accepted review, then revert.
The write may truncate first: wait until the file stops changing."
  (let ((path (file-truename path)))
    (when (seq-some (lambda (b) (equal (redline--file b) path)) (buffer-list))
      (let* ((was (redline--file-state path))
             (changed (seq-some (lambda (b) (and (equal (redline--file b) path)
                                                (not (verify-visited-file-modtime b))))
                                (buffer-list)))
             (ticks (round (/ redline--reload-watch-seconds redline--reload-poll-seconds)))
             (timer nil))
        (setq timer
              (run-with-timer
               redline--reload-poll-seconds redline--reload-poll-seconds
               (lambda ()
                 (let ((now (redline--file-state path)))
                   (setq ticks (1- ticks))
                   (cond
                    ((not (equal now was)) (setq changed t was now))
                    ((or changed (<= ticks 0))
                     (cancel-timer timer)
                     (redline--revert path)))))))))))

;;;; Commands

(defun redline--warn (what)
  "A callback showing an error answered to WHAT."
  (lambda (msg)
    (when (equal (alist-get 'type msg) "error")
      (message "Redline: %s: %s" what (or (alist-get 'message msg) "failed")))))

(defun redline--not-connected ()
  "Say the channel is down and why."
  (message "Redline: not connected%s"
           (if redline-last-error (format " (%s)" redline-last-error) "")))

;;;###autoload
(defun redline-mention (beg end)
  "Point the AI CLIs connected to Redline at the lines from BEG to END.
Interactively, the region's lines, or the current line."
  (interactive (if (use-region-p) (list (region-beginning) (region-end)) (list (point) (point))))
  (let ((path (redline--file (current-buffer))))
    (setq redline--last-shown nil)
    (if (not path)
        (message "Redline: this buffer is not a file")
      (let ((l1 (line-number-at-pos beg t))
            ;; A region ending at the start of a line does not take that line.
            (l2 (line-number-at-pos (if (and (> end beg) (save-excursion (goto-char end) (bolp))) (1- end) end) t)))
        (unless (redline--send `((type . "mention") (path . ,path) (start . ,l1) (end . ,l2))
                               (redline--warn "mention") t)
          (redline--not-connected))))))

;;;###autoload
(defun redline-review ()
  "Show the pending reviews in Redline's window."
  (interactive)
  (setq redline--last-shown nil)
  (unless (redline--send '((type . "review")) (redline--warn "review") t)
    (redline--not-connected)))

;;;###autoload
(defun redline-reject (reason)
  "Reject the pending review of this buffer's file in Redline.
REASON (prompted for; empty for none) goes to the CLI that proposed it."
  (interactive (list (read-string "Reject; reason (optional): ")))
  (let ((path (redline--file (current-buffer))))
    (setq redline--last-shown nil)
    (if (not path)
        (message "Redline: this buffer is not a file")
      (unless (redline--send
               `((type . "reject") (path . ,path)
                 ,@(unless (string-empty-p (string-trim reason)) `((reason . ,reason))))
               (lambda (msg)
                 (if (equal (alist-get 'type msg) "error")
                     (message "Redline: reject: %s" (or (alist-get 'message msg) "failed"))
                   (message "Redline: rejected the review of %s%s" (abbreviate-file-name path)
                            ;; `reasonSent' is there only as false, which reads as nil.
                            (if (null (alist-get 'reasonSent msg 'absent))
                                " (its CLI takes no reason: yours was not sent)"
                              ""))))
               t)
        (redline--not-connected)))))

;;;###autoload
(define-minor-mode redline-mode
  "Tell the AI coding CLIs connected to Redline what Emacs shows.
Open files, the active one, the cursor and the region go to Redline
over one `redline editor --stdio'; accepted files are reverted."
  :global t
  :lighter " Redline"
  :group 'redline
  (if redline-mode
      (progn
        (add-hook 'post-command-hook #'redline--changed)
        (add-hook 'window-buffer-change-functions #'redline--changed)
        (add-hook 'window-selection-change-functions #'redline--changed)
        (add-hook 'after-save-hook #'redline--changed)
        (add-hook 'kill-buffer-hook #'redline--changed)
        (add-hook 'kill-emacs-hook #'redline-stop)
        (redline-start)
        (redline--changed))
    (remove-hook 'post-command-hook #'redline--changed)
    (remove-hook 'window-buffer-change-functions #'redline--changed)
    (remove-hook 'window-selection-change-functions #'redline--changed)
    (remove-hook 'after-save-hook #'redline--changed)
    (remove-hook 'kill-buffer-hook #'redline--changed)
    (remove-hook 'kill-emacs-hook #'redline-stop)
    (when redline--timer (cancel-timer redline--timer) (setq redline--timer nil))
    (redline-stop)))

(provide 'redline)

;;; redline.el ends here
