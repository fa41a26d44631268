//! `jxvm gateway`: serves a host directory over 9P2000.L with the `ninep` crate's server and
//! export (nothing outside the directory is reachable; see `ninep::export`), and with `--net`
//! the host's TCP as a Plan 9 style `/net` tree under the attach name `#net` (`ninep::net`).
//!
//! It runs until SIGINT or SIGTERM; then, with `--stats`, it prints one line per message
//! type (count and bytes, requests and replies) on stderr, removes its Unix socket, and exits
//! 0. Once listening it prints `jxvm gateway: serving DIR on ADDR` on stderr (with the port
//! chosen when ADDR's port was 0).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use ninep::addr::Addr;
use ninep::export::Export;
use ninep::net::WithNet;
use ninep::server::Server;

pub const USAGE: &str =
    "Usage: jxvm gateway --export DIR [--read-only] [--net] --listen unix:PATH|tcp:HOST:PORT [--stats]
Serves DIR over 9P2000.L until SIGINT or SIGTERM. Any attach name that is empty, / or DIR
attaches to DIR; nothing outside DIR can be reached (.., symbolic links, renames, links).
    --export DIR    the directory to serve
    --read-only     refuse every change (EROFS)
    --net           also serve the host's TCP as a Plan 9 /net tree (attach name #net:
                    cs, tcp/clone, tcp/N/ctl, data, listen, local, remote, status)
    --listen ADDR   unix:PATH (a Unix socket) or tcp:HOST:PORT (port 0: any free port)
    --stats         on exit, print count and bytes per 9P message type on stderr
";

#[derive(Debug, PartialEq)]
pub struct Options {
    pub export: PathBuf,
    pub read_only: bool,
    pub net: bool,
    pub listen: Addr,
    pub stats: bool,
}

/// Parses the arguments after `gateway`; `Ok(None)` asks for the usage text.
pub fn parse(args: &[OsString]) -> Result<Option<Options>, String> {
    let (mut export, mut listen, mut read_only, mut stats) = (None, None, false, false);
    let mut net = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let a = a
            .to_str()
            .ok_or_else(|| format!("jxvm gateway: bad argument {a:?}"))?;
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Result<String, String> {
            inline.clone().map_or_else(
                || {
                    it.next()
                        .and_then(|v| v.to_str().map(str::to_string))
                        .ok_or_else(|| format!("jxvm gateway: {name} needs a value"))
                },
                Ok,
            )
        };
        match name {
            "--export" => export = Some(PathBuf::from(value()?)),
            "--listen" => {
                let v = value()?;
                listen = Some(Addr::parse(&v).map_err(|e| format!("jxvm gateway: {e}"))?);
            }
            "--read-only" => read_only = true,
            "--net" => net = true,
            "--stats" => stats = true,
            "--help" | "-h" => return Ok(None),
            _ => {
                return Err(format!(
                    "jxvm gateway: unknown option {a} (see jxvm gateway --help)"
                ));
            }
        }
    }
    let export = export.ok_or("jxvm gateway: missing --export DIR")?;
    let listen = listen.ok_or("jxvm gateway: missing --listen unix:PATH|tcp:HOST:PORT")?;
    Ok(Some(Options {
        export,
        read_only,
        net,
        listen,
        stats,
    }))
}

/// `jxvm gateway ARGS`.
pub fn main(args: &[OsString]) -> ExitCode {
    let opts = match parse(args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(1);
        }
    };
    match run(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("jxvm gateway: {msg}");
            ExitCode::from(1)
        }
    }
}

fn run(opts: &Options) -> Result<(), String> {
    // Before any thread starts, so that every thread leaves the stop signals to `wait`.
    ninep::sys::block_stop_signals().map_err(|e| format!("cannot block signals: {e}"))?;
    let dir = opts.export.display();
    if !opts.export.is_dir() {
        return Err(format!("cannot export {dir}: not a directory"));
    }
    let fs = Export::new(&opts.export, opts.read_only)
        .map_err(|e| format!("cannot export {dir}: {e}"))?;
    let listener = opts
        .listen
        .listen()
        .map_err(|e| format!("cannot listen on {}: {e}", opts.listen))?;
    let bound = listener
        .local_addr()
        .unwrap_or_else(|_| opts.listen.clone());
    let server = Server::new(WithNet::new(fs, opts.net));
    let stats = server.stats();
    let ro = if opts.read_only { " (read-only)" } else { "" };
    let net = if opts.net { " and /net" } else { "" };
    eprintln!("jxvm gateway: serving {dir}{net} on {bound}{ro}");
    std::thread::Builder::new()
        .name("9p-accept".into())
        .spawn(move || {
            if let Err(e) = server.serve(&listener) {
                eprintln!("jxvm gateway: accepting connections failed: {e}");
                std::process::exit(1);
            }
        })
        .map_err(|e| format!("cannot start: {e}"))?;
    ninep::sys::wait_stop_signal();
    if opts.stats {
        eprint!("{}", stats.report());
    }
    if let Addr::Unix(path) = &opts.listen {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<OsString> {
        s.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_every_option_in_both_forms() {
        let o = parse(&args(&[
            "--export",
            "/srv",
            "--listen=tcp:127.0.0.1:564",
            "--read-only",
            "--net",
            "--stats",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            o,
            Options {
                export: "/srv".into(),
                read_only: true,
                net: true,
                listen: Addr::Tcp("127.0.0.1:564".into()),
                stats: true
            }
        );
        let o = parse(&args(&["--listen", "unix:/run/gw", "--export=/d"]))
            .unwrap()
            .unwrap();
        assert!(!o.read_only && !o.stats && !o.net);
        assert_eq!(parse(&args(&["--help"])), Ok(None));
    }

    #[test]
    fn errors_are_one_line() {
        for (a, want) in [
            (&["--export", "/d"][..], "missing --listen"),
            (&["--listen", "unix:/x"][..], "missing --export"),
            (&["--export"][..], "--export needs a value"),
            (
                &["--export", "/d", "--listen", "udp:x"][..],
                "bad 9P address",
            ),
            (&["--bogus"][..], "unknown option --bogus"),
        ] {
            let e = parse(&args(a)).unwrap_err();
            assert!(e.contains(want) && !e.contains('\n'), "{e}");
        }
    }
}
