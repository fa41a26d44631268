//! `jxvm cache list|stats|verify|clear [-XX:SharedArchiveFile=FILE]`: what the class cache of
//! this jxvm build and JDK holds, its sizes and counters, a full check of its checksums, and
//! removal (of every cache file in the default directory, or of FILE).

use std::process::ExitCode;

const USAGE: &str = "usage: jxvm cache list|stats|verify|clear [-XX:SharedArchiveFile=FILE]";

pub fn main(argv: &[std::ffi::OsString]) -> ExitCode {
    let args: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut opts = vm::embed::CacheOptions::default();
    let mut command = None;
    for a in &args {
        if let Some(p) = a.strip_prefix("-XX:SharedArchiveFile=") {
            opts.path = Some(p.into());
        } else if command.is_none() && !a.starts_with('-') {
            command = Some(a.as_str());
        } else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let settings = crate::args::find_java_home().and_then(|home| {
        vm::embed::class_cache_settings(&opts, &home)
            .ok_or_else(|| "no cache directory: neither XDG_CACHE_HOME nor HOME is set".into())
    });
    let settings = match settings {
        Ok(s) => s,
        Err(e) => {
            eprintln!("jxvm cache: {e}");
            return ExitCode::from(1);
        }
    };
    let r = match command {
        Some("list") => list(&settings),
        Some("stats") => stats(&settings),
        Some("verify") => verify(&settings),
        Some("clear") => clear(&settings, opts.path.is_some()),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jxvm cache: {e}");
            ExitCode::from(1)
        }
    }
}

fn kind_name(kind: u32) -> &'static str {
    match kind {
        1 => "class",
        _ => "other",
    }
}

/// What an entry holds: a class summary's class name, or why it is unusable.
fn describe(e: &cache::Entry) -> String {
    match (&e.payload, e.kind) {
        (None, _) => "(damaged)".into(),
        (Some(p), 1) => match classfile::summary::decode(p) {
            Ok(cf) => cf.name.replace('/', "."),
            Err(err) => format!("({err})"),
        },
        (Some(_), _) => String::new(),
    }
}

fn list(s: &cache::Settings) -> Result<(), String> {
    use std::io::Write;
    let entries = cache::list(s)?;
    let mut out = std::io::stdout().lock();
    // A reader that stops early (`| head`) ends the listing, quietly.
    let _ = writeln!(out, "{}: {} entries", s.path.display(), entries.len());
    for e in entries {
        let line = writeln!(
            out,
            "{:<6} {} {:>9} bytes  last used {}  {}",
            kind_name(e.kind),
            e.key.hex(),
            e.size,
            e.last_used,
            describe(&e)
        );
        if line.is_err() {
            break;
        }
    }
    Ok(())
}

fn stats(s: &cache::Settings) -> Result<(), String> {
    let st = cache::stats(s)?;
    let c = st.counters;
    let looked = c.hits + c.misses;
    println!("file:      {}", st.path.display());
    println!("size:      {} bytes (limit {})", st.file_size, s.max_size);
    println!(
        "entries:   {} ({} bytes of summaries)",
        st.entries, st.payload_bytes
    );
    println!("created:   {} (seconds since the epoch)", st.created);
    println!("runs:      {}", c.runs);
    println!(
        "hits:      {} of {looked} look-ups ({:.1}%), misses {}",
        c.hits,
        c.hits as f64 * 100.0 / looked.max(1) as f64,
        c.misses
    );
    Ok(())
}

fn verify(s: &cache::Settings) -> Result<(), String> {
    let mut v = cache::verify(s)?;
    // Beyond the checksums: every class summary decodes.
    for e in cache::list(s)?
        .iter()
        .filter(|e| e.kind == 1 && e.payload.is_some())
    {
        let d = describe(e);
        if d.starts_with('(') {
            v.problems
                .push(format!("entry {} does not decode: {d}", e.key.hex()));
        }
    }
    for p in &v.problems {
        println!("{}: {p}", s.path.display());
    }
    if !v.problems.is_empty() {
        return Err(format!("{} damaged entries", v.problems.len()));
    }
    println!(
        "{}: {} entries, {} bytes, all checksums correct{}",
        s.path.display(),
        v.entries,
        v.bytes,
        if v.uncommitted > 0 {
            format!(
                " ({} uncommitted bytes of an interrupted writer)",
                v.uncommitted
            )
        } else {
            String::new()
        }
    );
    Ok(())
}

fn clear(s: &cache::Settings, one_file: bool) -> Result<(), String> {
    let target = match s.path.parent() {
        Some(dir) if !one_file => dir.to_path_buf(),
        _ => s.path.clone(),
    };
    if !target.exists() {
        println!("no class cache at {}", target.display());
        return Ok(());
    }
    let n = cache::clear(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    println!("removed {n} class cache file(s) from {}", target.display());
    Ok(())
}
