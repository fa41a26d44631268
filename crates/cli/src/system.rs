//! System descriptions (`jxvm --system FILE`): a TOML file that says which domains to create,
//! which components (main classes with their arguments) run in each, from which class path,
//! and with which limits. The same component code runs split over several domains or
//! collocated in one by changing only this file (JX §2.4).
//!
//! ```toml
//! [[domain]]
//! name = "kv"                      # unique, not empty
//! class-path = ["classes"]         # relative entries are relative to this file
//! heap-limit = "64m"               # bytes, or with k/m/g; default 256m
//! cpu-time-limit = "10s"           # milliseconds, or with ms/s/min; default none
//! max-threads = 16                 # default none
//! io = "9p:unix:/run/gw.sock"      # its files over 9P (as --io, `,cache=off` too; its class
//!                                  # path is then in the 9P namespace); default "host"
//!
//! [[domain.component]]             # one or more; each runs in a thread of the domain
//! main = "kv.Server"
//! args = ["--verbose"]
//! ```
//!
//! Owns the parsing and checking of the file and its translation into domain specs; it does
//! not create domains (`vm::embed::Launcher::create_domain` does).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use vm::embed::{Component, Limits, Spec};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemFile {
    #[serde(default)]
    domain: Vec<DomainEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DomainEntry {
    name: String,
    class_path: Vec<String>,
    heap_limit: Option<Amount>,
    off_heap_limit: Option<Amount>,
    #[serde(default)]
    trusted: bool,
    cpu_time_limit: Option<Amount>,
    max_threads: Option<u32>,
    descriptor_limit: Option<u32>,
    metadata_limit: Option<Amount>,
    io: Option<String>,
    #[serde(default)]
    component: Vec<ComponentEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComponentEntry {
    main: String,
    #[serde(default)]
    args: Vec<String>,
}

/// A size or a duration: a plain number, or a string with a unit.
#[derive(Deserialize)]
#[serde(untagged)]
enum Amount {
    Number(i64),
    Text(String),
}

/// Reads the system description at `path` into one spec per domain, in file order.
pub fn load(path: &Path) -> Result<Vec<Spec>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "Error: cannot read system description {}: {e}",
            path.display()
        )
    })?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &base).map_err(|e| format!("Error: system description {}: {e}", path.display()))
}

/// Parses a system description; relative class path entries are resolved against `base`.
fn parse(text: &str, base: &Path) -> Result<Vec<Spec>, String> {
    let file: SystemFile = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().replace('\n', "; ");
        match e.span() {
            Some(span) => format!(
                "line {}: {message}",
                text[..span.start.min(text.len())].lines().count().max(1)
            ),
            None => message,
        }
    })?;
    if file.domain.is_empty() {
        return Err("it describes no domain (add a [[domain]] table)".into());
    }
    let mut specs: Vec<Spec> = Vec::with_capacity(file.domain.len());
    for d in file.domain {
        let spec = domain_spec(d, base)?;
        if specs.iter().any(|s| s.name == spec.name) {
            return Err(format!("two domains are named {}", spec.name));
        }
        specs.push(spec);
    }
    Ok(specs)
}

fn domain_spec(d: DomainEntry, base: &Path) -> Result<Spec, String> {
    let name = d.name;
    if name.is_empty() {
        return Err("a domain has an empty name".into());
    }
    let err = |what: String| format!("domain {name}: {what}");
    if d.component.is_empty() {
        return Err(err(
            "no component (add a [[domain.component]] table with a main class)".into(),
        ));
    }
    if d.class_path.is_empty() {
        return Err(err("empty class-path".into()));
    }
    let io = match &d.io {
        Some(v) => port::IoSpec::parse(v).map_err(|e| err(format!("io: {e}")))?,
        None => port::IoSpec::Host,
    };
    // A 9P domain's class path is in its namespace (relative to its `/`).
    let base = match io {
        port::IoSpec::Host => base,
        _ => Path::new("/"),
    };
    let class_path = d
        .class_path
        .iter()
        .map(|e| resolve(e, base))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let components = d
        .component
        .into_iter()
        .map(|c| {
            if c.main.is_empty() {
                Err(err("a component has no main class".into()))
            } else {
                Ok(Component {
                    main_class: c.main,
                    args: c.args,
                })
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let size = |a: Option<Amount>, key: &str| {
        a.map(|a| bytes(&a))
            .transpose()
            .map_err(|e| err(format!("{key}: {e}")))
            .map(|n| n.unwrap_or(0))
    };
    let heap_bytes = size(d.heap_limit, "heap-limit")?;
    let off_heap_bytes = size(d.off_heap_limit, "off-heap-limit")?;
    let metadata_bytes = size(d.metadata_limit, "metadata-limit")?;
    let cpu_millis = d
        .cpu_time_limit
        .map(|a| millis(&a))
        .transpose()
        .map_err(|e| err(format!("cpu-time-limit: {e}")))?
        .unwrap_or(0);
    let max_threads = match d.max_threads {
        Some(0) => return Err(err("max-threads must be positive".into())),
        n => n.unwrap_or(0),
    };
    let max_descriptors = match d.descriptor_limit {
        Some(0) => return Err(err("descriptor-limit must be positive".into())),
        n => n.unwrap_or(0),
    };
    let limits = Limits {
        heap_bytes,
        off_heap_bytes,
        cpu_nanos: cpu_millis.saturating_mul(1_000_000),
        max_threads,
        max_descriptors,
        metadata_bytes,
    };
    Ok(Spec {
        name,
        class_path,
        components,
        limits,
        parent: None,
        trusted: d.trusted,
        io,
    })
}

/// A class path entry, made absolute against the description's directory.
fn resolve(entry: &str, base: &Path) -> Result<String, String> {
    if entry.is_empty() || entry.contains(':') {
        return Err(format!(
            "bad class-path entry {entry:?} (give one directory or jar per entry)"
        ));
    }
    let p = PathBuf::from(entry);
    let p = if p.is_absolute() { p } else { base.join(p) };
    p.into_os_string()
        .into_string()
        .map_err(|_| format!("class-path entry {entry:?} is not UTF-8"))
}

/// A positive size in bytes: a number, or a string like "64m".
fn bytes(a: &Amount) -> Result<u64, String> {
    let n = match a {
        Amount::Number(n) => u64::try_from(*n).ok(),
        Amount::Text(s) => crate::args::parse_size(s.trim()).map(|n| n as u64),
    };
    n.filter(|&n| n > 0).ok_or_else(|| {
        format!(
            "expected a positive size like 67108864 or \"64m\", found {}",
            shown(a)
        )
    })
}

/// A positive duration in milliseconds: a number, or a string like "500ms", "10s", "2min".
fn millis(a: &Amount) -> Result<u64, String> {
    let n = match a {
        Amount::Number(n) => u64::try_from(*n).ok(),
        Amount::Text(s) => {
            let s = s.trim();
            let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
            let mult = match unit.trim() {
                "" | "ms" => Some(1),
                "s" => Some(1000),
                "min" => Some(60_000),
                _ => None,
            };
            num.parse::<u64>()
                .ok()
                .zip(mult)
                .and_then(|(n, m)| n.checked_mul(m))
        }
    };
    n.filter(|&n| n > 0).ok_or_else(|| {
        format!(
            "expected a positive duration like 500 or \"10s\", found {}",
            shown(a)
        )
    })
}

fn shown(a: &Amount) -> String {
    match a {
        Amount::Number(n) => n.to_string(),
        Amount::Text(s) => format!("{s:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Vec<Spec> {
        parse(text, Path::new("/sys")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> String {
        match parse(text, Path::new("/sys")) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e,
        }
    }

    const TWO: &str = r#"
        [[domain]]
        name = "kv"
        class-path = ["classes", "/abs/lib.jar"]
        heap-limit = "64m"
        off-heap-limit = "16m"
        cpu-time-limit = "10s"
        max-threads = 8
        descriptor-limit = 100
        metadata-limit = "32m"
        [[domain.component]]
        main = "kv.Server"

        [[domain]]
        name = "clients"
        class-path = ["classes"]
        cpu-time-limit = 250
        [[domain.component]]
        main = "kv.Client"
        args = ["a", "10"]
        [[domain.component]]
        main = "kv.Client"
        args = ["b"]
    "#;

    #[test]
    fn domains_components_and_limits() {
        let specs = parse_ok(TWO);
        assert_eq!(specs.len(), 2);
        let kv = &specs[0];
        assert_eq!(kv.name, "kv");
        assert_eq!(kv.class_path, ["/sys/classes", "/abs/lib.jar"]);
        assert_eq!(kv.limits.heap_bytes, 64 << 20);
        assert_eq!(kv.limits.off_heap_bytes, 16 << 20);
        assert_eq!(kv.limits.cpu_nanos, 10_000_000_000);
        assert_eq!(kv.limits.max_threads, 8);
        assert_eq!(kv.limits.max_descriptors, 100);
        assert_eq!(kv.limits.metadata_bytes, 32 << 20);
        assert_eq!(
            kv.components,
            [Component {
                main_class: "kv.Server".into(),
                args: vec![]
            }]
        );
        let c = &specs[1];
        assert_eq!(c.limits.cpu_nanos, 250_000_000);
        assert_eq!(c.limits.heap_bytes, 0, "no limit given: the default");
        assert_eq!(c.components.len(), 2);
        assert_eq!(c.components[0].args, ["a", "10"]);
    }

    #[test]
    fn a_domain_names_its_backend_and_its_file_cache() {
        let text = "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\n\
                    io = \"9p:unix:/run/gw.sock,cache=off\"\n\
                    [[domain.component]]\nmain = \"M\"\n";
        let specs = parse_ok(text);
        let port::IoSpec::NineP(n) = &specs[0].io else {
            panic!("{:?}", specs[0].io)
        };
        assert!(!n.cache);
        assert_eq!(specs[0].class_path, ["/c"]);
        let on = parse_ok(&text.replace(",cache=off", ""));
        assert!(matches!(&on[0].io, port::IoSpec::NineP(n) if n.cache));
    }

    #[test]
    fn bad_descriptions_are_refused_with_the_reason() {
        let cases: &[(&str, &str)] = &[
            ("", "no domain"),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\n",
                "domain a: no component",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\nheap = 3\n[[domain.component]]\nmain = \"M\"\n",
                "unknown field `heap`",
            ),
            (
                "[[domain]]\nname = \"\"\nclass-path = [\"c\"]\n[[domain.component]]\nmain = \"M\"\n",
                "empty name",
            ),
            (
                "[[domain]]\nclass-path = [\"c\"]\n[[domain.component]]\nmain = \"M\"\n",
                "missing field `name`",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c:d\"]\n[[domain.component]]\nmain = \"M\"\n",
                "bad class-path entry",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = []\n[[domain.component]]\nmain = \"M\"\n",
                "empty class-path",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\nheap-limit = \"lots\"\n[[domain.component]]\nmain = \"M\"\n",
                "heap-limit: expected a positive size",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\noff-heap-limit = 0\n[[domain.component]]\nmain = \"M\"\n",
                "off-heap-limit: expected a positive size",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\ndescriptor-limit = 0\n[[domain.component]]\nmain = \"M\"\n",
                "descriptor-limit must be positive",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\ncpu-time-limit = -5\n[[domain.component]]\nmain = \"M\"\n",
                "cpu-time-limit: expected a positive duration",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\ncpu-time-limit = \"3 fortnights\"\n[[domain.component]]\nmain = \"M\"\n",
                "cpu-time-limit",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\nmax-threads = 0\n[[domain.component]]\nmain = \"M\"\n",
                "max-threads must be positive",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\n[[domain.component]]\nmain = \"\"\n",
                "no main class",
            ),
            (
                "[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\n[[domain.component]]\nmain = \"M\"\n[[domain]]\nname = \"a\"\nclass-path = [\"c\"]\n[[domain.component]]\nmain = \"M\"\n",
                "two domains are named a",
            ),
            (
                "[[domain]]\nname = \"a\"\n\nclass-path = [\"c\"\n",
                "line 4",
            ),
        ];
        for (text, want) in cases {
            let e = parse_err(text);
            assert!(
                e.contains(want),
                "{text:?}: error {e:?} does not say {want:?}"
            );
            assert!(!e.contains('\n'), "one line: {e:?}");
        }
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(millis(&Amount::Text("500ms".into())), Ok(500));
        assert_eq!(millis(&Amount::Text("2min".into())), Ok(120_000));
        assert_eq!(millis(&Amount::Text("7".into())), Ok(7));
        assert!(millis(&Amount::Text("s".into())).is_err());
        assert!(millis(&Amount::Number(0)).is_err());
        assert_eq!(bytes(&Amount::Text("1g".into())), Ok(1 << 30));
        assert_eq!(bytes(&Amount::Number(4096)), Ok(4096));
        assert!(bytes(&Amount::Number(-1)).is_err());
    }
}
