//! JAR manifests (`META-INF/MANIFEST.MF`, the JAR File Specification), read as the JDK reads
//! them: `java.util.jar.Manifest` for attributes (what the application loader's `Class-Path`
//! and the launcher's `Main-Class` come from), and the stricter first look java's native
//! launcher takes at the main section of a `-jar` file before any Java code runs.
//!
//! The format: lines end with CR LF, LF or CR; a line starting with one space continues the
//! previous one (writers split lines at 72 bytes); `Name: value` headers whose names are
//! compared without regard to case; a blank line ends a section. The main section comes first,
//! then `Name:` sections. `java.util.jar.Manifest` takes lines of at most 512 bytes (with their
//! end) and drops a last line that has no end.

use std::path::{Component, Path, PathBuf};

/// The longest line `java.util.jar.Manifest` reads, its end included.
const MAX_LINE: usize = 512;

/// The main attributes of a manifest, in order, names as written.
pub struct Manifest {
    main: Vec<(String, String)>,
}

impl Manifest {
    /// Reads a manifest as `java.util.jar.Manifest` does; the error is its IOException's
    /// message.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        let mut lines = Lines { bytes, pos: 0 };
        let main = read_attributes(&mut lines)?;
        // The other sections: only whether they are well formed matters here.
        let mut skip_empty = true;
        let mut name: Option<Vec<u8>> = None;
        while let Some(line) = lines.next_line()? {
            if line.is_empty() && skip_empty {
                continue;
            }
            skip_empty = false;
            let text = match name.take() {
                None => {
                    let named = line.len() >= 6
                        && line[..4].eq_ignore_ascii_case(b"name")
                        && &line[4..6] == b": ";
                    if !named {
                        return Err("invalid manifest format".into());
                    }
                    line[6..].to_vec()
                }
                Some(mut before) => {
                    before.extend_from_slice(line.get(1..).unwrap_or_default());
                    before
                }
            };
            if lines.peek() == Some(b' ') {
                name = Some(text);
                continue;
            }
            read_attributes(&mut lines)?;
            skip_empty = true;
        }
        Ok(Manifest { main })
    }

    /// The value of main attribute `name` (names compared without regard to case; the last of
    /// duplicates wins, as in `java.util.jar.Attributes`).
    pub fn main_attribute(&self, name: &str) -> Option<&str> {
        self.main
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The lines of a manifest as `Manifest.FastInputStream.readLine` gives them.
struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Lines<'a> {
    /// The next line without its end; None at the end (a last line with no end is dropped);
    /// an error for a line longer than `MAX_LINE`.
    fn next_line(&mut self) -> Result<Option<&'a [u8]>, String> {
        let rest = &self.bytes[self.pos..];
        let window = &rest[..rest.len().min(MAX_LINE)];
        let Some(end) = window.iter().position(|&b| b == b'\n' || b == b'\r') else {
            if window.len() == MAX_LINE {
                return Err("line too long".into());
            }
            self.pos = self.bytes.len();
            return Ok(None);
        };
        let mut next = end + 1;
        if window[end] == b'\r' && next < window.len() && window[next] == b'\n' {
            next += 1;
        }
        self.pos += next;
        Ok(Some(&rest[..end]))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
}

/// `java.util.jar.Attributes.read`: one section's headers, up to a blank line or the end.
fn read_attributes(lines: &mut Lines) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut name: Option<String> = None;
    let mut pending: Option<Vec<u8>> = None;
    while let Some(line) = lines.next_line()? {
        if line.is_empty() {
            break;
        }
        let value = if line[0] == b' ' {
            let Some(n) = &name else {
                return Err("misplaced continuation line".into());
            };
            let mut v = pending.take().unwrap_or_default();
            v.extend_from_slice(&line[1..]);
            if lines.peek() == Some(b' ') {
                pending = Some(v);
                continue;
            }
            let _ = n;
            v
        } else {
            let colon = line
                .iter()
                .position(|&b| b == b':')
                .ok_or("invalid header field")?;
            if line.get(colon + 1) != Some(&b' ') {
                return Err("invalid header field".into());
            }
            let n = String::from_utf8_lossy(&line[..colon]).into_owned();
            if !valid_name(&n) {
                return Err(format!("invalid header field name: {n}"));
            }
            name = Some(n);
            let v = line[colon + 2..].to_vec();
            if lines.peek() == Some(b' ') {
                pending = Some(v);
                continue;
            }
            v
        };
        let n = name.clone().unwrap_or_default();
        out.push((n, String::from_utf8_lossy(&value).into_owned()));
    }
    Ok(out)
}

/// `java.util.jar.Attributes.Name`: 1 to 70 ASCII letters, digits, `-` and `_`.
fn valid_name(n: &str) -> bool {
    (1..=70).contains(&n.len())
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether java's native launcher (`JLI_ParseManifest`) accepts the main section of a `-jar`
/// file's manifest; if not, java says "Invalid or corrupt jarfile". It wants `name: value`
/// headers (a colon followed by a space) and every continuation line ended, and reads up to
/// the first blank line (or a NUL byte).
pub fn launcher_accepts(bytes: &[u8]) -> bool {
    let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
    let mut pos = 0;
    loop {
        let rest = &text[pos..];
        match rest.first() {
            None | Some(b'\n' | b'\r') => return true,
            Some(_) => {}
        }
        let line_end = |from: usize| {
            rest[from..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map(|i| from + i)
        };
        // The header line and its continuations, joined.
        let mut header = Vec::new();
        let Some(mut end) = line_end(0) else {
            return header_ok(rest);
        };
        header.extend_from_slice(&rest[..end]);
        let mut next = after_newline(rest, end);
        while rest.get(next) == Some(&b' ') {
            let Some(e) = line_end(next + 1) else {
                return false;
            };
            header.extend_from_slice(&rest[next + 1..e]);
            end = e;
            next = after_newline(rest, end);
        }
        if !header_ok(&header) {
            return false;
        }
        pos += next;
    }
}

/// The index after the line end at `end` (CR LF, LF or CR).
fn after_newline(text: &[u8], end: usize) -> usize {
    if text[end] == b'\r' && text.get(end + 1) == Some(&b'\n') {
        end + 2
    } else {
        end + 1
    }
}

fn header_ok(header: &[u8]) -> bool {
    header
        .iter()
        .position(|&b| b == b':')
        .is_some_and(|c| header.get(c + 1) == Some(&b' '))
}

/// The class path entries a `Class-Path` value names, as the application loader resolves
/// them (`URLClassPath.parseClassPath`): URLs separated by white space, relative to the jar's
/// directory, `%xx` escapes decoded; URLs of another scheme than `file:` are left out. An
/// entry ending in `/` is a directory, any other a jar.
pub fn class_path_entries(jar: &Path, value: &str) -> Vec<PathBuf> {
    let base = std::path::absolute(jar).unwrap_or_else(|_| jar.to_path_buf());
    let dir = base.parent().map(Path::to_path_buf).unwrap_or_default();
    value
        .split([' ', '\t', '\n', '\r', '\x0c'])
        .filter(|u| !u.is_empty())
        .filter_map(|url| {
            let path = match url.split_once(':') {
                Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => rest,
                Some(_) => return None,
                None => url,
            };
            let path = path.split(['#', '?']).next().unwrap_or_default();
            let path = percent_decode(path);
            let joined = if path.starts_with('/') {
                PathBuf::from(&path)
            } else {
                dir.join(&path)
            };
            let mut out = normalize(&joined);
            if path.ends_with('/') {
                // Keep the mark of a directory.
                out.push("");
            }
            Some(out)
        })
        .collect()
}

/// `..` and `.` taken out of an absolute path (as URL resolution does).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |j: usize| b.get(j).and_then(|&c| (c as char).to_digit(16));
        match (b[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn main_class(m: &[u8]) -> Result<Option<String>, String> {
        Manifest::parse(m).map(|m| m.main_attribute("Main-Class").map(str::to_string))
    }

    #[test]
    fn continuation_case_and_line_ends() {
        assert_eq!(
            main_class(b"Main-Class: app.ma\n in.Main\n"),
            Ok(Some("app.main.Main".into()))
        );
        assert_eq!(main_class(b"main-class: A\r\n"), Ok(Some("A".into())));
        assert_eq!(main_class(b"X: y\rMAIN-CLASS: A\r"), Ok(Some("A".into())));
        assert_eq!(main_class(b"Main-Class: A"), Ok(None));
        assert_eq!(
            main_class(b"Main-Class: A\n\nName: x\nMain-Class: B\n"),
            Ok(Some("A".into()))
        );
        assert_eq!(
            main_class(b"Main-Class: B\nmain-class: A\n"),
            Ok(Some("A".into()))
        );
        assert!(main_class(b" Main-Class: A\n").is_err());
        assert!(main_class(b"\nMain-Class: A\n").is_err());
        assert!(main_class(b"X Y: z\n").is_err());
        let long = [b"X: ".as_slice(), &[b'a'; 508], b"\n"].concat();
        assert!(main_class(&long).is_ok());
        let longer = [b"X: ".as_slice(), &[b'a'; 509], b"\n"].concat();
        assert!(main_class(&longer).is_err());
    }

    #[test]
    fn native_launcher_check() {
        assert!(launcher_accepts(b"Main-Class: A\n"));
        assert!(launcher_accepts(b"Main-Class: A"));
        assert!(!launcher_accepts(b"Main-Class:A\n"));
        assert!(!launcher_accepts(b"Main-Class: A\nNoColon\n"));
        assert!(!launcher_accepts(b"Main-Class: A\n b"));
        assert!(launcher_accepts(b"Main-Class: A\n b\n\nwhatever"));
    }

    /// Arbitrary bytes (built from the format's special characters) never panic any reader.
    #[test]
    fn any_bytes_are_an_answer() {
        let alphabet = b"Name: Main-Class\r\n %20:/.\x00\xff";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..2000usize {
            let bytes: Vec<u8> = (0..len % 700)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            let _ = launcher_accepts(&bytes);
            if let Ok(m) = Manifest::parse(&bytes) {
                let cp = m
                    .main_attribute("Class-Path")
                    .unwrap_or_default()
                    .to_string();
                let _ = class_path_entries(Path::new("/x/a.jar"), &cp);
            }
            let _ = class_path_entries(Path::new("a.jar"), &String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn class_path_urls() {
        let got = class_path_entries(
            Path::new("/x/app.jar"),
            " lib/a.jar\tlib/b%20c.jar dir/ ../up.jar http://h/a.jar file:/abs/z.jar",
        );
        let want: Vec<PathBuf> = [
            "/x/lib/a.jar",
            "/x/lib/b c.jar",
            "/x/dir/",
            "/up.jar",
            "/abs/z.jar",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(got, want);
    }
}
