//! The arguments java takes from elsewhere than its command line: `@argfiles` (their
//! contents in their place, up to the main class; `@@x` is the argument `@x`;
//! `--disable-@files` stops it) and the environment's options, each announced on stderr as java
//! does: `JDK_JAVA_OPTIONS` (the launcher's: options only, before the command line's),
//! `JAVA_TOOL_OPTIONS` (the VM's, before both) and `_JAVA_OPTIONS` (the VM's, after the
//! command line's options, so they win).
//!
//! Owns reading and splitting them (whitespace separates, single or double quotes group; in a
//! file `#` starts a comment and quoted parts take backslash escapes) and where they go in the
//! argument list; parsing them is `args`'.

use std::ffi::OsString;

/// `cmdline` with the environment's options put where java puts them; an error (java's
/// message) if `JDK_JAVA_OPTIONS` names a main class or `-jar`.
pub fn with_environment_options(cmdline: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let cmdline = expand_argfiles(cmdline)?;
    let read = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let launcher = read("JDK_JAVA_OPTIONS");
    let tool = read("JAVA_TOOL_OPTIONS");
    let after = read("_JAVA_OPTIONS");
    if let Some(v) = &launcher {
        eprintln!("NOTE: Picked up JDK_JAVA_OPTIONS: {v}");
    }
    let launcher = launcher.map(|v| split(&v)).unwrap_or_default();
    let launcher: Vec<String> =
        expand_argfiles(launcher.into_iter().map(OsString::from).collect())?
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
    check_launcher_options(&launcher)?;
    if let Some(v) = &tool {
        eprintln!("Picked up JAVA_TOOL_OPTIONS: {v}");
    }
    if let Some(v) = &after {
        eprintln!("Picked up _JAVA_OPTIONS: {v}");
    }
    let cmdline = expand_vm_options_file(cmdline)?;
    let end = options_end(&cmdline);
    let os = |v: Vec<String>| v.into_iter().map(OsString::from);
    let mut all: Vec<OsString> = os(tool.map(|v| split(&v)).unwrap_or_default()).collect();
    all.extend(os(launcher));
    all.extend_from_slice(&cmdline[..end]);
    all.extend(os(after.map(|v| split(&v)).unwrap_or_default()));
    all.extend_from_slice(&cmdline[end..]);
    Ok(all)
}

/// The option naming a file of VM options.
const VM_OPTIONS_FILE: &str = "-XX:VMOptionsFile=";

/// `args` with a `-XX:VMOptionsFile=FILE` among the options replaced by the file's options
/// (split as the environment's options are), as HotSpot reads it: one such file, naming no
/// other, with HotSpot's messages.
fn expand_vm_options_file(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let end = options_end(&args);
    let named = |a: &OsString| a.to_string_lossy().starts_with(VM_OPTIONS_FILE);
    let Some(at) = args[..end].iter().position(named) else {
        return Ok(args);
    };
    let option = args[at].to_string_lossy().into_owned();
    let not_created = crate::args::NOT_CREATED;
    if let Some(again) = args[at + 1..end].iter().find(|a| named(a)) {
        return Err(format!(
            "The option '{option}' is already specified in the options container 'cmd_line_args' so the specification of '{}' in the same options container is an error.\n{not_created}",
            again.to_string_lossy()
        ));
    }
    let file = &option[VM_OPTIONS_FILE.len()..];
    let text = std::fs::read(file)
        .map_err(|_| format!("Could not open options file '{file}'\n{not_created}"))?;
    let options = split(&String::from_utf8_lossy(&text));
    if options.iter().any(|o| o.starts_with(VM_OPTIONS_FILE)) {
        return Err(format!(
            "A VM options file may not refer to a VM options file. Specification of '{VM_OPTIONS_FILE}<file-name>' in the options file '{option}' in options container 'cmd_line_args' is an error.\n{not_created}"
        ));
    }
    // They are the VM's options: anything else is not one.
    if let Some(other) = options.iter().find(|o| !o.starts_with('-')) {
        return Err(format!("Unrecognized option: {other}\n{not_created}"));
    }
    let mut out = args;
    out.splice(at..=at, options.into_iter().map(OsString::from));
    Ok(out)
}

/// `args` with each `@file` before the main class replaced by the file's arguments.
fn expand_argfiles(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let mut out = Vec::with_capacity(args.len());
    let (mut value_next, mut main_seen, mut disabled) = (false, false, false);
    for arg in args {
        let text = arg.to_string_lossy().into_owned();
        if main_seen || disabled {
            out.push(arg);
            continue;
        }
        if text == "--disable-@files" {
            disabled = true;
            continue;
        }
        let expanded = match text.strip_prefix('@') {
            Some(rest) if rest.starts_with('@') => vec![rest.to_string()],
            Some(file) if !file.is_empty() => {
                let bytes =
                    std::fs::read(file).map_err(|_| format!("Error: could not open `{file}'"))?;
                split_file(&String::from_utf8_lossy(&bytes))
            }
            _ => {
                out.push(arg);
                note(&text, &mut value_next, &mut main_seen);
                continue;
            }
        };
        for a in expanded {
            note(&a, &mut value_next, &mut main_seen);
            out.push(OsString::from(a));
        }
    }
    Ok(out)
}

/// Follows where the options end: after a value-taking option comes its value; the first
/// other non-option (or `-jar`'s jar) is the main class.
fn note(arg: &str, value_next: &mut bool, main_seen: &mut bool) {
    if *value_next {
        *value_next = false;
    } else if arg == "-jar" {
        *value_next = true;
        *main_seen = true;
    } else if arg.starts_with('-') {
        *value_next = crate::args::takes_value(arg);
    } else {
        *main_seen = true;
    }
}

/// Where the options of `argv` end: at the main class or `-jar`.
fn options_end(argv: &[OsString]) -> usize {
    let mut i = 0;
    while let Some(a) = argv.get(i).map(|a| a.to_string_lossy()) {
        if !a.starts_with('-') || a == "-jar" {
            break;
        }
        i += if crate::args::takes_value(&a) { 2 } else { 1 };
    }
    i.min(argv.len())
}

fn check_launcher_options(options: &[String]) -> Result<(), String> {
    let mut value_next = false;
    for o in options {
        if value_next {
            value_next = false;
        } else if o == "-jar" {
            return Err(
                "Error: Option -jar is not allowed in environment variable JDK_JAVA_OPTIONS".into(),
            );
        } else if !o.starts_with('-') {
            return Err(
                "Error: Cannot specify main class in environment variable JDK_JAVA_OPTIONS".into(),
            );
        } else {
            value_next = crate::args::takes_value(o);
        }
    }
    Ok(())
}

/// Splits an options variable: whitespace separates, and a single- or double-quoted part
/// (quotes removed) may hold any.
fn split(v: &str) -> Vec<String> {
    tokens(v, false)
}

/// Splits an argument file: as `split`, and `#` (between arguments) starts a comment to the end
/// of the line; inside quotes a backslash escapes (`\n`, `\t`, `\r`, `\f`, or the next
/// character), and one before a line break continues the argument on the next line.
fn split_file(text: &str) -> Vec<String> {
    tokens(text, true)
}

fn tokens(text: &str, file: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) if ch == '\\' && file => match chars.next() {
                Some('n') => cur.push('\n'),
                Some('t') => cur.push('\t'),
                Some('r') => cur.push('\r'),
                Some('f') => cur.push('\u{c}'),
                Some('\n') | Some('\r') => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                Some(c) => cur.push(c),
                None => {}
            },
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                in_token = true;
            }
            None if ch == '#' && file && !in_token => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            None if ch.is_whitespace() => {
                if in_token {
                    out.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            None => {
                cur.push(ch);
                in_token = true;
            }
        }
    }
    if in_token {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_group_and_whitespace_separates() {
        assert_eq!(
            split("  -Da=1\t-Dq='a b' -Dr=\"c d\"x  "),
            ["-Da=1", "-Dq=a b", "-Dr=c dx"]
        );
        assert!(split("   ").is_empty());
    }

    #[test]
    fn argument_files_have_comments_and_escapes() {
        assert_eq!(
            split_file("-cp \"a b\" # note\n-Dk='x\\ty' \\\n  'long\\\n   er' # end"),
            ["-cp", "a b", "-Dk=x\ty", "\\", "longer"]
        );
    }

    #[test]
    fn options_end_at_the_main_class_or_jar() {
        let argv = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(options_end(&argv(&["-cp", "x", "-Xmx1m", "Main", "-v"])), 3);
        assert_eq!(options_end(&argv(&["-Dk=v", "-jar", "a.jar"])), 1);
        assert_eq!(options_end(&argv(&["-cp"])), 1);
    }

    #[test]
    fn the_launcher_variable_takes_options_only() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_launcher_options(&s(&["-cp", "dir", "-Dk=v"])).is_ok());
        assert!(
            check_launcher_options(&s(&["Main"]))
                .unwrap_err()
                .contains("main class")
        );
        assert!(
            check_launcher_options(&s(&["-jar", "a.jar"]))
                .unwrap_err()
                .contains("-jar")
        );
    }
}
