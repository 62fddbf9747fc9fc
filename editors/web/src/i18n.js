// The page's strings in English and Simplified Chinese. The language follows the browser's
// (`navigator.languages`, the first that is English or Chinese) as the server's `locale`
// does: any Chinese gives Simplified Chinese, anything else English. The same locale goes
// to mfls in `initialize`, so its diagnostics, hovers and fixes speak it too.
const STRINGS = {
  en: {
    title: "mfls playground",
    starting: "Starting mfls in this page…",
    started: (version, seconds) => `${version}, started in ${seconds} s`,
    notStarted: (why) => `mfls did not start: ${why}`,
    course: "Course",
    courseFiles: "Course files",
    problems: "Problems",
    editor: "Editor",
    courseMap: "Course map",
    refresh: "Refresh",
    addLesson: "Add lesson",
    rename: "Rename",
    delete: "Delete",
    openExport: "Open export…",
    openFolder: "Open folder…",
    saveExport: "Save export",
    share: "Share",
    dismiss: "Dismiss",
    newLessonName: "New lesson's file name",
    renameTo: (path) => `Rename ${path} to`,
    deleteFile: (path) => `Delete ${path}?`,
    dropHint: "Drop an AI-Shifu export (.json) to open it as a course",
    opened: (title, count) => `Opened ${title}: ${count} ${count === 1 ? "file" : "files"}`,
    exportRefused: (message) => `Not opened: ${message.replace(/\.$/, "")}. The course on the page is unchanged.`,
    stopped: (why) => `mfls stopped: ${why}`,
    stoppedRestart: "mfls stopped working in this page (its Python failed). Your course is kept: restart mfls (the button beside the status) to go on checking it.",
    restart: "Restart mfls",
    restarting: "Restarting mfls…",
    learnerView: "Learner view",
    pageVersion: "Learner page version",
    learnerNote: "Each interaction as AI-Shifu's learner page shows it, read by the page's own parser (remark-flow); the AI writes the rest from the prompt.",
    learnerNoLesson: "Open a lesson (.md) to see it as the learner does.",
    learnerLoading: "Loading the learner page's parser…",
    learnerAi: (from, to) => (from === to ? `AI writes from line ${from}` : `AI writes from lines ${from}–${to}`),
    learnerRaw: "The page cannot read this interaction: the learner gets the raw text",
    learnerNoVariable: "The page reads no variable here: the answer is stored nowhere",
    learnerSavedAs: (name) => `saved as ${name}`,
    learnerSeveral: "choose several",
    packRefused: (message) => `No export saved: ${message}`,
    saved: (name) => `Saved ${name}`,
    folderEmpty: "That folder has no lessons (.md) or mfcourse.toml: the course on the page is unchanged.",
    shared: "Link copied: it holds every file of the course, in the address after #, and is sent nowhere.",
    shareShown: "The link to this course (copy it from here):",
    shareHint: "A link holding every file of the course",
    tooLongToShare: (size, most) =>
      `This course is too large to share in a link (${size} characters, at most ${most}): download it as a zip instead.`,
    sharedLesson: (path) => `Showing the shared lesson ${path}.`,
    sharedCourse: (count) => `Showing the shared course: ${count} ${count === 1 ? "file" : "files"}.`,
    downloadZip: "Download zip",
    copyMarkdown: "Copy as Markdown",
    copyMarkdownHint: "Every file of the course and the mfls version, as Markdown for a bug report",
    copiedMarkdown: (count) => `Copied ${count} ${count === 1 ? "file" : "files"} and the mfls version as Markdown.`,
    copyMarkdownShown: "The course as Markdown (copy it from here):",
    host: "Host",
    target: "Target",
    hostDefault: "host's default",
    unknownSetting: (value) => `${value} (not known)`,
    badLink: "The link's course could not be read (too long or damaged): here is the example course.",
    leftOut: (paths) => `Left out of the course (outside it, in mfls's own .mfls folder, or not a portable file name): ${paths.join(", ")}.`,
    socketClosed: (where, reason) =>
      `mfls at ${where} closed the connection${reason ? ` (${reason})` : ""}: reload the page once it runs again.`,
    socketUnreachable: (where) =>
      `Cannot reach mfls at ${where}: is \`mfls serve --ws\` running there, and is the address the one it printed?`,
  },
  zh: {
    title: "mfls 在线体验",
    starting: "正在本页中启动 mfls…",
    started: (version, seconds) => `${version}，${seconds} 秒启动`,
    notStarted: (why) => `mfls 未能启动：${why}`,
    course: "课程",
    courseFiles: "课程文件",
    problems: "问题",
    editor: "编辑器",
    courseMap: "课程地图",
    refresh: "刷新",
    addLesson: "添加课时",
    rename: "重命名",
    delete: "删除",
    openExport: "打开导出文件…",
    openFolder: "打开文件夹…",
    saveExport: "保存导出文件",
    share: "分享",
    dismiss: "关闭",
    newLessonName: "新课时的文件名",
    renameTo: (path) => `将 ${path} 重命名为`,
    deleteFile: (path) => `删除 ${path}？`,
    dropHint: "拖入 AI-Shifu 导出文件（.json）即可作为课程打开",
    opened: (title, count) => `已打开 ${title}：${count} 个文件`,
    exportRefused: (message) => `未打开：${message.replace(/[.。]$/, "")}。页面上的课程没有改变。`,
    stopped: (why) => `mfls 已停止：${why}`,
    stoppedRestart: "mfls 在本页中停止了工作（它的 Python 出错）。课程已保留：重新启动 mfls（状态旁的按钮）即可继续检查。",
    restart: "重新启动 mfls",
    restarting: "正在重新启动 mfls…",
    learnerView: "学员视图",
    pageVersion: "学员页面版本",
    learnerNote: "每个交互都按 AI-Shifu 学员页面的显示呈现，由页面自己的解析器（remark-flow）读取；其余内容由 AI 根据提示词写出。",
    learnerNoLesson: "打开一个课时（.md），即可看到学员看到的样子。",
    learnerLoading: "正在加载学员页面的解析器…",
    learnerAi: (from, to) => (from === to ? `AI 根据第 ${from} 行写出` : `AI 根据第 ${from}–${to} 行写出`),
    learnerRaw: "页面无法读取此交互：学员看到的是原始文本",
    learnerNoVariable: "页面在此读不到变量：答案不会被保存",
    learnerSavedAs: (name) => `保存为 ${name}`,
    learnerSeveral: "可多选",
    packRefused: (message) => `未保存导出文件：${message}`,
    saved: (name) => `已保存 ${name}`,
    folderEmpty: "该文件夹中没有课时（.md）或 mfcourse.toml：页面上的课程没有改变。",
    shared: "链接已复制：课程的全部文件保存在地址 # 之后的部分中，不会发送到任何地方。",
    shareShown: "本课程的链接（请从这里复制）：",
    shareHint: "包含课程全部文件的链接",
    tooLongToShare: (size, most) => `本课程太大，无法放入链接（${size} 个字符，最多 ${most} 个）：请改为下载 zip。`,
    sharedLesson: (path) => `正在显示分享的课时 ${path}。`,
    sharedCourse: (count) => `正在显示分享的课程：${count} 个文件。`,
    downloadZip: "下载 zip",
    copyMarkdown: "复制为 Markdown",
    copyMarkdownHint: "课程的全部文件和 mfls 版本，以 Markdown 形式用于报告问题",
    copiedMarkdown: (count) => `已将 ${count} 个文件和 mfls 版本复制为 Markdown。`,
    copyMarkdownShown: "课程的 Markdown（请从这里复制）：",
    host: "宿主",
    target: "目标",
    hostDefault: "宿主默认",
    unknownSetting: (value) => `${value}（未知）`,
    badLink: "无法读取链接中的课程（过长或已损坏）：以下是示例课程。",
    leftOut: (paths) => `以下文件未放入课程（位于课程之外、位于 mfls 自己的 .mfls 文件夹中，或不是可移植的文件名）：${paths.join("、")}。`,
    socketClosed: (where, reason) =>
      `${where} 上的 mfls 关闭了连接${reason ? `（${reason}）` : ""}：待它重新运行后请刷新页面。`,
    socketUnreachable: (where) =>
      `无法连接 ${where} 上的 mfls：请确认 \`mfls serve --ws\` 正在那里运行，且地址与它打印的一致。`,
  },
};

export function languageOf(languages) {
  for (const tag of languages || []) {
    const name = String(tag).toLowerCase();
    if (name === "zh" || name.startsWith("zh-")) return { language: "zh", locale: "zh-CN" };
    if (name === "en" || name.startsWith("en-")) return { language: "en", locale: "en" };
  }
  return { language: "en", locale: "en" };
}

export const { language, locale } = languageOf(navigator.languages);

export function t(key, ...args) {
  const value = STRINGS[language][key];
  return typeof value === "function" ? value(...args) : value;
}

// The static strings of the page: each element with `data-i18n` (its text) or
// `data-i18n-<attribute>` (an attribute) gets them in the page's language.
export function translatePage(root = document) {
  document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  document.title = t("title");
  for (const element of root.querySelectorAll("*")) {
    for (const { name, value } of [...element.attributes]) {
      if (name === "data-i18n") element.textContent = t(value);
      else if (name.startsWith("data-i18n-")) element.setAttribute(name.slice("data-i18n-".length), t(value));
    }
  }
}
