// A course file's URI under the course's root URI, and back: each segment of the path
// percent-encoded.
export function uriUnder(root, path) {
  return `${root}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

export function pathUnder(root, uri) {
  return uri.slice(root.length + 1).split("/").map(decodeURIComponent).join("/");
}
