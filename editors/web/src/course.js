// The example course the page opens with: a question asked in one lesson and read in
// others, a near miss of it (lesson 2) and a key no lesson asks (lesson 2).
export const EXAMPLE_COURSE = {
  "mfcourse.toml": "# The playground's example course: edit it like any file.\nname = \"Playground\"\nhost = \"ai-shifu\"\ntarget = \"current\"\nlessons = [\"lessons/*.md\"]\n",
  "lessons/01-welcome.md": "# Welcome\n\nGreet the learner and introduce the course in two sentences.\n\nAsk which topic the learner wants to learn, and keep the answer for later lessons.\n\n?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]\n\nAsk how much time the learner has each week.\n\n?[{{ How many hours per week can you study? }} 1-2 hours//short | 3-5 hours//medium | More//long]\n",
  "lessons/02-first-program.md": "# Your first program\n\nUse {{ What would you like to learn? }} to choose the language of the first example.\n\nPlan the lesson for {{ How many hours per week can you study? }}: keep it short\nwhen the answer is `short`.\n\nStart from what the learner said about {{ What would you like to lern? }}.\n\nTailor the setup instructions to {{ What is your preferred editor? }}.\n",
  "lessons/03-practice.md": "# Practice\n\nAsk how the first program went.\n\n?[{{ How did the first program go? }} Easy | Just right | Hard]\n\nUse {{ How did the first program go? }} and {{ What would you like to learn? }} to\nchoose three exercises.\n"
};
