// Share links: the whole course in the address's fragment (share.js compresses it), the
// course the page opens with (the example, a shared course, or the lesson an older link
// carries, at the path mfls's rule gives it), and a link pasted into the address bar.
import { EXAMPLE_COURSE } from "./course.js";
import { t } from "./i18n.js";
import { say } from "./message_box.js";
import { MOST_SHARED_CHARACTERS, courseFragment, isShareLink, sharedCourse, sharedLesson } from "./share.js";

// The course the page opens with; a link that does not read says so and gives the example.
export async function firstCourse(worker) {
  let lesson = null;
  try {
    const course = await sharedCourse(location.hash);
    if (course) {
      say(t("sharedCourse", Object.keys(course).length), "info");
      return course;
    }
    lesson = await sharedLesson(location.hash);
  } catch {
    say(t("badLink"), "error");
    return EXAMPLE_COURSE;
  }
  if (!lesson) return EXAMPLE_COURSE;
  const path = await worker.lessonPath(lesson.path);
  if (!path || path === "mfcourse.toml") {
    say(t("badLink"), "error");
    return EXAMPLE_COURSE;
  }
  say(t("sharedLesson", path), "info");
  return { "mfcourse.toml": EXAMPLE_COURSE["mfcourse.toml"], [path]: lesson.text };
}

function encoded(course) {
  const encoder = new TextEncoder();
  return Object.fromEntries(Object.entries(course).map(([path, text]) => [path, encoder.encode(text)]));
}

export function shareLinks(state, worker) {
  // Share: every file of the course in the address's fragment, the link copied and shown.
  document.getElementById("share").addEventListener("click", async () => {
    if (!state.views.size) return;
    const fragment = await courseFragment(state.texts());
    if (fragment.length > MOST_SHARED_CHARACTERS) {
      say(t("tooLongToShare", fragment.length, MOST_SHARED_CHARACTERS), "error");
      return;
    }
    history.replaceState(null, "", fragment);
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      say(t("shared"), "info", link);
    } catch {
      say(t("shareShown"), "info", link);
    }
  });

  // A shared link pasted into this tab's address: its course (or lesson) replaces the course.
  window.addEventListener("hashchange", async () => {
    if (!worker || !isShareLink(location.hash)) return;
    const course = await firstCourse(worker);
    worker.post({ replace: { files: encoded(course), title: null, shared: true } });
  });
}
