// mfls in the page's Web Worker (worker.js): what the page sends it (files written or
// removed, exports, folders, a pack, the path of a named lesson) and what it says back (mfls
// started, failed or stopped, a new course, a refusal); a restart in a new worker on the
// course as the page has it. None of it exists in the socket mode.
import { locale, t } from "./i18n.js";
import { say, dismiss } from "./message_box.js";
import { showStatus } from "./status_line.js";
import { workerTransport } from "./transport.js";

export class MflsWorker {
  // `openCourse(files)`: a course the worker made (an export, a folder) shown on the page;
  // `closeFiles(paths)`: files the worker left out (mfls's path rule refused them) closed.
  constructor(state, openCourse, closeFiles) {
    this.state = state;
    this.openCourse = openCourse;
    this.closeFiles = closeFiles;
    this.waiting = new Map(); // request id -> resolve
    this.nextId = 0;
    this.restartButton = document.getElementById("restart");
    this.listen(state.worker);
  }

  listen(worker) {
    worker.addEventListener("message", (event) => this.fromTheWorker(event.data));
  }

  post(message, transfer) {
    this.state.worker.postMessage(message, transfer ?? []);
  }

  // A request answered by a message carrying its id (`packed`, `lessonPath`).
  ask(kind, request) {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.post({ [kind]: { id, ...request } });
    });
  }

  answered(answer) {
    this.waiting.get(answer.id)?.(answer);
    this.waiting.delete(answer.id);
  }

  fromTheWorker(data) {
    const { ready, failed, course, refused, packed, lessonPath } = data;
    const state = this.state;
    if (data.snapshotProblem) console.warn(`mfls: ${data.snapshotProblem}`);
    if (ready) {
      showStatus(t("started", ready.version, ready.seconds.toFixed(1)));
      window.mflsStarted = ready;
    } else if (failed) {
      showStatus(t("notStarted", failed), "failed");
    } else if (data.dead !== undefined) {
      state.dead = true;
      showStatus(t("stopped", data.dead), "failed");
      this.restartButton.hidden = false;
      say(t("stoppedRestart"), "error");
    } else if (course) {
      state.exportName = course.saveAs ?? null;
      state.kept = course.kept ?? {};
      state.epoch += 1;
      this.openCourse(course.files);
      if (course.title != null) say(t("opened", course.title, Object.keys(course.files).length), "info");
      if (course.leftOut?.length) say(t("leftOut", course.leftOut), "error");
    } else if (data.leftOut) {
      this.closeFiles(data.leftOut);
      say(t("leftOut", data.leftOut), "error");
    } else if (refused !== undefined) {
      say(t("exportRefused", refused), "error");
    } else if (packed) {
      this.answered(packed);
    } else if (lessonPath) {
      this.answered(lessonPath);
    }
  }

  // The course path of a lesson the author named, by mfls's one rule
  // (mfls.lsp.playground.lesson_path), or null.
  async lessonPath(name) {
    return (await this.ask("lessonPath", { name })).path;
  }

  // A file of the course written or removed where the server reads it, for the course on
  // the page: the worker ignores what was sent for a course it has replaced meanwhile.
  writeFile(path, text) {
    this.post({ write: path, text, epoch: this.state.epoch });
  }

  removeFile(path) {
    this.post({ remove: path, epoch: this.state.epoch });
  }

  // The course packed back by mfls into its export, the `edited` texts written first:
  // `{bytes}` or `{refused}`.
  pack(edited) {
    return this.ask("pack", { edited });
  }

  // mfls started again in a new worker, on the course as the page has it: every editor's
  // text and the other files the course came with; the client connects to it anew (and
  // opens every file there). The button shows beside the status while mfls is dead.
  restartOnClick(client, initialized) {
    this.restartButton.addEventListener("click", () => {
      const state = this.state;
      dismiss();
      this.restartButton.hidden = true;
      state.worker.terminate();
      const files = { ...state.kept, ...state.texts() };
      state.worker = new Worker("worker.js", { type: "module" });
      this.listen(state.worker);
      this.post({ course: files, restarted: true });
      state.dead = false;
      state.epoch = 0;
      showStatus(t("restarting"), "loading");
      client.disconnect();
      client.connect(workerTransport(state.worker, locale));
      client.initializing.then(initialized);
    });
  }
}
