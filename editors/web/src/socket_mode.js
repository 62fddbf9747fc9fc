// The socket mode (`index.html?ws=<the URL mfls serve --ws printed>`): no worker; the page
// edits the course of that server's --root, its files as the server has them, and says
// when the server cannot be reached or goes away (its course stays on screen).
import { locale, t } from "./i18n.js";
import { showStatus } from "./status_line.js";
import { webSocketTransport } from "./transport.js";

export const SOCKET_HIDDEN = ["course-buttons", "add-lesson", "rename-file", "delete-file"];

export class SocketMode {
  constructor(state) {
    this.state = state;
    this.gone = false;
  }

  // The transport to the server; one that cannot be reached is said on the page.
  async connect() {
    const url = this.state.socketUrl;
    try {
      return await webSocketTransport(url, locale, (where, reason) => {
        this.gone = true;
        showStatus(t("socketClosed", where, reason), "failed");
      });
    } catch (error) {
      showStatus(t("socketUnreachable", url.split("?")[0]), "failed");
      throw error;
    }
  }

  // The course's files from the server (`mfls.courseFiles`), asked again while it is still
  // indexing them; the page's root becomes the server's.
  async openCourse(client, openCourse) {
    const state = this.state;
    for (;;) {
      try {
        const { courses } = await client.request("workspace/executeCommand", { command: "mfls.courseFiles", arguments: [] });
        state.rootUri = courses[0].root;
        showStatus(`mfls at ${state.socketUrl.split("?")[0]}: ${courses[0].root}`);
        openCourse(courses[0].files);
        return;
      } catch (error) {
        if (this.gone) return;
        if (!/still being indexed/.test(String(error && error.message))) {
          showStatus(String(error && error.message || error), "failed");
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}
