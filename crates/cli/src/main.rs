//! The `jxvm` command: java's command line on top of the jxvm runtime.
//!
//! Argument parsing is hand-written because java's syntax (`-cp`, `-Dk=v`, `-Xmx512m`,
//! `-version`, everything after the main class passed to the program) does not fit a
//! general-purpose parser's conventions.

mod args;

use std::process::ExitCode;

use args::{Command, parse_args};

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let cmd = match parse_args(&argv) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("{msg}");
            eprintln!("Run 'jxvm --help' for usage.");
            return ExitCode::from(1);
        }
    };
    match cmd {
        Command::ApiJar => match vm::api::write_jar() {
            Ok(path) => {
                println!("{}", path.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("jxvm: cannot write the API jar: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Help => {
            print!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Command::Version { to_stdout } => {
            let text = args::version_text();
            if to_stdout {
                print!("{text}");
            } else {
                eprint!("{text}");
            }
            ExitCode::SUCCESS
        }
        Command::Run(run) => run_java(run),
    }
}

/// Runs the program on a thread with a stack big enough for deep Java recursion.
fn run_java(run: args::Run) -> ExitCode {
    let stack = (run.opts.stack_size * 64).max(512 << 20);
    let h = std::thread::Builder::new().name("main".into()).stack_size(stack).spawn(move || launch(run));
    match h.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("jxvm: internal error: the main thread failed");
            ExitCode::from(134)
        }
    }
}

fn launch(run: args::Run) -> u8 {
    let vm = match vm::vm::Vm::create(run.opts) {
        Ok(vm) => vm,
        Err(e) => {
            eprintln!("Error occurred during initialization of VM\n{e}");
            return 1;
        }
    };
    let mut t = match vm::vm::boot(vm) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("Error occurred during initialization of VM\n{e}");
            return 1;
        }
    };
    let code = match vm::vm::run_main(&mut t, &run.main_class, &run.args) {
        Ok(()) => 0,
        Err(vm::vm::LaunchError::Message(m)) => {
            eprintln!("{m}");
            return 1;
        }
        Err(vm::vm::LaunchError::Uncaught) => {
            vm::vm::dispatch_uncaught(&mut t);
            1
        }
    };
    vm::native::thread::exit_thread(&mut t);
    vm::native::thread::wait_for_non_daemon(&mut t);
    let domains = &t.vm.domains;
    t.blocking(|| domains.wait_for_mains());
    vm::vm::shutdown(&mut t);
    if std::env::var_os("JXVM_STATS").is_some() {
        eprintln!(
            "[stats] classes={} heap_used={}KB",
            t.vm.classes.class_count(),
            t.domain.heap.used() / 1024
        );
    }
    code
}
