//! The jxvm Java API end to end: `jxvm --api-jar` gives a jar javac compiles against, and the
//! self-checking programs of `tests/jx/` (which HotSpot cannot run: they use `jx.*`) pass on
//! jxvm. Each program prints one `ok <what>` line per check and throws on a failed one; the
//! expected exception messages are asserted here.

mod common;

use std::path::{Path, PathBuf};

use common::{api_jar, javac, jxvm, scratch};

/// Compiles `tests/jx/NAME.java` against the API jar into a scratch directory.
fn compile(name: &str) -> PathBuf {
    let dir = scratch(name);
    javac(&[&format!("tests/jx/{name}.java")], &dir);
    dir
}

/// Runs a compiled program; returns its stdout after checking it exited 0 with no failure.
fn run(dir: &Path, name: &str, env: &[(&str, &str)]) -> String {
    run_with(dir, &[], name, &[], env)
}

/// [`run`] with VM options before the class and arguments after it.
fn run_with(
    dir: &Path,
    options: &[&str],
    name: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> String {
    let out = jxvm()
        .args(options)
        .arg("-cp")
        .arg(dir)
        .arg(name)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("FAILED"), "{name}:\n{stdout}");
    stdout
}

#[test]
fn the_api_jar_is_a_jar_of_the_api_classes() {
    let jar = api_jar();
    let bytes = std::fs::read(&jar).unwrap();
    assert_eq!(&bytes[..2], b"PK", "{} is not a zip", jar.display());
    for class in [
        "jx/memory/Memory.class",
        "jx/memory/ReadOnlyMemory.class",
        "jx/memory/RevokedMemoryException.class",
    ] {
        assert!(
            bytes.windows(class.len()).any(|w| w == class.as_bytes()),
            "{class} missing"
        );
    }
    assert_eq!(api_jar(), jar, "the same path every time");
}

const MEMORY_CHECKS: &[&str] = &[
    "ok allocate: 64 zeroed bytes",
    "ok ints are little-endian and unaligned",
    "ok long, short, double and float round-trip",
    "ok copyFrom and copyTo",
    "ok a sub-range sees the same memory",
    "ok writes through a sub-range are seen by the whole",
    "ok read-only views read, cannot be cast to Memory",
    "IndexOutOfBoundsException: Range [60, 60 + 8) out of bounds for length 64",
    "IndexOutOfBoundsException: Range [-1, -1 + 1) out of bounds for length 64",
    "IndexOutOfBoundsException: Range [8, 8 + 9) out of bounds for length 16",
    "ArrayIndexOutOfBoundsException: Range [2, 2 + 3) out of bounds for length 4",
    "NullPointerException: null",
    "IllegalArgumentException: negative size: -1",
    "ok revoke invalidates every derived view",
    "RevokedMemoryException: the memory was revoked",
    "ok the revoked range's data is kept for the new holder",
    "ok toString",
    "ok revocation racing with 4 readers, 20 rounds",
    "ok 2 GB of memory objects allocated and released",
];

#[test]
fn memory_objects() {
    let dir = compile("MemoryObjects");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "MemoryObjects", env);
        for line in MEMORY_CHECKS {
            assert!(
                out.lines().any(|l| l == *line),
                "missing `{line}` in:\n{out}"
            );
        }
    }
}

/// What `tests/jx/Psos.java` prints besides its `ok` lines: the exception of each bad case,
/// in order.
const PSO_REFUSALS: &[&str] = &[
    "IllegalArgumentException: a PSO field can only refer to a PSO of the same container",
    "IndexOutOfBoundsException: Psos$All of 48 bytes at offset 9999 does not fit in a container of 512 bytes",
    "IndexOutOfBoundsException: Psos$All of 48 bytes at offset -6 does not fit in a container of 512 bytes",
    "ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 5",
    "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 5",
    "IndexOutOfBoundsException: jx.pso.IntArray of 8 bytes at offset 1020 does not fit in a container of 1024 bytes",
    "NegativeArraySizeException: -1",
    "ContainerFullException: LongArray of 1000 (8000 bytes) does not fit at 72 in a container of 1024 bytes",
    "ReadOnlyBufferException: null",
    "ReadOnlyBufferException: null",
    "ReadOnlyBufferException: null",
    "RevokedMemoryException: the memory was revoked",
    "RevokedMemoryException: the memory was revoked",
    "RevokedMemoryException: the memory was revoked",
    "RevokedMemoryException: the memory was revoked",
    "IndexOutOfBoundsException: Psos$All of 48 bytes at offset 60 does not fit in a container of 100 bytes",
    "IndexOutOfBoundsException: Psos$All of 48 bytes at offset -1 does not fit in a container of 100 bytes",
    "ContainerFullException: Psos$All (48 bytes) does not fit at 64 in a container of 100 bytes",
    "IllegalArgumentException: used 101 outside 0..100",
    "IllegalArgumentException: PSO field Psos$BadString.name has type java.lang.String: a PSO field must be a primitive or a PSO class",
    "IllegalArgumentException: PSO field Psos$BadArray.values has type int[]: a PSO field must be a primitive or a PSO class",
    "IllegalArgumentException: PSO field Psos$BadString.name has type java.lang.String: a PSO field must be a primitive or a PSO class",
    "IllegalArgumentException: Psos$Shape is abstract: a PSO must be of a concrete class",
    "IllegalArgumentException: java.lang.String is not a PSO class",
    "IllegalStateException: a PSO is made only by Container.allocate or Container.at, not by new",
];

#[test]
fn pre_serialized_objects() {
    let dir = compile("Psos");
    let stressed = [("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")];
    for (options, env) in [
        (&[][..], &[][..]),
        (&["-Xcomp"], &[]),
        (&["-Xint"], &stressed),
    ] {
        let out = run_with(&dir, options, "Psos", &[], env);
        checks(&out, 26);
        let others: Vec<&str> = out.lines().filter(|l| !l.starts_with("ok ")).collect();
        assert_eq!(others, PSO_REFUSALS, "{options:?} {env:?}");
    }
}

#[test]
fn psos_in_a_mapped_file_are_recovered_by_a_new_process() {
    let dir = compile("Psos");
    let file = dir.join("list.bin");
    let file = file.to_str().unwrap();
    let out = run_with(&dir, &[], "Psos", &["write", file], &[]);
    assert!(out.starts_with("ok wrote a list of 10"), "{out}");
    let out = run_with(&dir, &["-Xcomp"], "Psos", &["read", file], &[]);
    assert_eq!(
        out.trim(),
        "ok recovered the list from the file in a new process"
    );
}

/// Each program runs plainly and with the collector under stress and verification.
const PLAIN_AND_STRESSED: [&[(&str, &str)]; 2] =
    [&[], &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")]];

/// Checks that each of `lines` is among the `ok` lines `oks` of output `out`.
fn assert_has(oks: &[&str], out: &str, lines: &[&str]) {
    for line in lines {
        assert!(oks.contains(line), "missing `{line}` in:\n{out}");
    }
}

/// Every `ok` line a self-checking program printed, after checking it printed `expected` of them.
fn checks(out: &str, expected: usize) -> Vec<&str> {
    let oks: Vec<&str> = out.lines().filter(|l| l.starts_with("ok ")).collect();
    assert_eq!(
        oks.len(),
        expected,
        "expected {expected} checks, got:\n{out}"
    );
    oks
}

#[test]
fn domains_isolate_limit_and_terminate() {
    let dir = compile("Domains");
    let out = run(&dir, "Domains", &[]);
    let oks = checks(&out, 21);
    assert!(oks.contains(&"ok statics are per domain"), "{out}");
    assert!(
        oks.contains(&"ok a runaway loop is stopped past its CPU-time limit"),
        "{out}"
    );
    assert!(
        out.contains("threads refused: 3"),
        "max 3 threads: main and two more\n{out}"
    );
}

#[test]
fn domains_under_collector_stress() {
    let dir = compile("Domains");
    let out = run(
        &dir,
        "Domains",
        &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
    );
    checks(&out, 21);
}

#[test]
fn portals_copy_pass_by_reference_and_fail_cleanly() {
    let dir = compile("Portals");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Portals", env);
        let oks = checks(&out, 32);
        assert!(
            oks.contains(&"ok a Portal object becomes a service and comes home as itself"),
            "{out}"
        );
    }
}

/// Finalization is per domain: a domain's finalizer thread runs its objects' finalizers, in
/// it; a domain whose finalizer blocks forever is still terminated.
#[test]
fn finalizers_run_in_their_domain() {
    let dir = compile("Finalization");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Finalization", env);
        let oks = checks(&out, 11);
        assert!(
            oks.contains(&"ok fin-a: by a finalizer thread of its own domain"),
            "{out}"
        );
    }
}

/// The finalizable objects a portal call copies (parameters, however deep, and results) are
/// registered in the domain that receives them: each copy's finalize() runs there, by its
/// finalizer thread, and each original's where it was made.
#[test]
fn copied_finalizable_objects_are_finalized_where_they_land() {
    let dir = compile("FinalizationCopies");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "FinalizationCopies", env);
        let oks = checks(&out, 8);
        assert!(
            oks.contains(
                &"ok the originals of parameters and the copies of results are finalized here"
            ),
            "{out}"
        );
    }
}

/// Deadlock detection sees a portal activation deadlocked with a thread of the service's
/// domain (reporting the activation's Thread object), not in the caller's domain; the
/// deadlocked domain is still terminated.
#[test]
fn deadlocks_with_portal_activations_are_found_in_their_domain() {
    let dir = compile("Deadlocks");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Deadlocks", env);
        let oks = checks(&out, 7);
        assert!(
            oks.contains(&"ok the caller's domain has no deadlock"),
            "{out}"
        );
    }
}

/// Termination stops threads blocked in accept, pipe and FIFO reads, a FIFO open and a
/// process wait, and portal calls blocked in the terminated domain (the caller's OS thread
/// then does its own system calls as before).
#[test]
fn termination_stops_threads_blocked_in_system_calls() {
    let dir = compile("BlockedIo");
    let out = run(&dir, "BlockedIo", &[]);
    let oks = checks(&out, 13);
    assert!(
        oks.contains(&"ok fifo-read: terminated while blocked in a system call"),
        "{out}"
    );
}

/// Copies the files of directory `from` into `to` (created).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// Domains whose class paths are different directories with the same component exchange its
/// objects; a domain whose copy of a class differs refuses them (PortalException).
#[test]
fn components_cross_between_class_paths() {
    let dir = compile("ClassPaths");
    let twin = scratch("ClassPaths-twin");
    copy_dir(&dir, &twin);
    let odd = scratch("ClassPaths-odd");
    copy_dir(&dir, &odd);
    let variant = scratch("ClassPaths-variant");
    let source = variant.join("CpEntry.java");
    std::fs::write(&source, "class CpEntry { String name; long n; CpKind kind; CpEntry next; java.util.List<CpEntry> more; }\n").unwrap();
    let ok = std::process::Command::new("javac")
        .args(["--release", "17", "-cp"])
        .arg(&dir)
        .arg("-d")
        .arg(&odd)
        .arg(&source)
        .status()
        .unwrap();
    assert!(ok.success(), "javac of the variant CpEntry failed");
    for env in PLAIN_AND_STRESSED {
        let out = jxvm()
            .arg("-cp")
            .arg(&dir)
            .arg("ClassPaths")
            .arg(&twin)
            .arg(&odd)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "ClassPaths failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let oks = checks(&stdout, 9);
        assert!(oks.contains(&"ok a class whose file differs does not cross: an object of class CpEntry cannot be passed across domains"), "{stdout}");
    }
}

const TEMPLATE_CHECKS: &[&str] = &[
    "java.class.path is its class path",
    "the application loader finds its resources",
    "and its classes",
    "main thread in the main group",
    "interned strings are the literals",
    "system properties are its own",
    "the reference handler runs",
    "threads start and finish",
];

/// Domains copied from the class library's template (the default; no warning that they boot
/// from scratch) pass the same checks as domains booted from scratch, also under GC stress.
#[test]
fn domains_made_from_the_template_behave_as_booted_ones() {
    let dir = compile("Templates");
    let envs: [&[(&str, &str)]; 3] = [
        &[],
        &[("JXVM_DOMAIN_TEMPLATE", "0")],
        &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
    ];
    for env in envs {
        let out = jxvm()
            .arg("-cp")
            .arg(&dir)
            .arg("Templates")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{env:?}:\n{stdout}\n{stderr}");
        assert!(
            !stderr.contains("boot from scratch"),
            "{env:?}: the template was refused:\n{stderr}"
        );
        for probe in ["probe-1", "probe-2"] {
            for check in TEMPLATE_CHECKS {
                let line = format!("ok {probe}: {check}");
                assert!(
                    stdout.lines().any(|l| l == line),
                    "{env:?}: missing `{line}` in:\n{stdout}\n{stderr}"
                );
            }
        }
        assert!(
            stdout
                .lines()
                .any(|l| l == "ok launcher: the probes' properties stayed theirs"),
            "{stdout}"
        );
    }
}

/// Domains tried as an attacker would (issue 15): forged handles and portals, deep reflection,
/// trusted lookups, Unsafe, hand-made bytecode and a program's own `jx.*` classes are refused,
/// in the launcher's domain, an untrusted created one and a trusted created one, and
/// revocation reaches views derived through collected intermediates; also under GC stress.
#[test]
fn hostile_code_cannot_forge_capabilities() {
    let dir = compile("Hostile");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Hostile", env);
        let oks = checks(&out, 140);
        for (domain, n) in [("launcher", 54), ("attacker", 32), ("trusted-attacker", 54)] {
            assert_eq!(
                oks.iter()
                    .filter(|l| l.starts_with(&format!("ok [{domain}]")))
                    .count(),
                n,
                "{domain}:\n{out}"
            );
        }
        assert_has(
            &oks,
            &out,
            &[
                "ok [attacker] setAccessible on Domain.id (InaccessibleObjectException)",
                "ok [attacker] Unsafe cannot take the trusted lookup (SecurityException)",
                "ok [trusted-attacker] IMPL_LOOKUP.findConstructor(Domain(int, String)) (IllegalAccessException)",
                "ok [trusted-attacker] ... which still cannot be called (19) (IllegalAccessError)",
                "ok [attacker] a program's own jx.memory.ReadOnlyMemory has no natives (UnsatisfiedLinkError)",
                "ok [attacker] it is revoked with the root after its intermediates were collected (RevokedMemoryException)",
                "ok [attacker] the victim's revoke reaches it (RevokedMemoryException)",
                "ok [launcher] the attacker domain passed all its checks",
                "ok [launcher] the trusted-attacker domain passed all its checks",
            ],
        );
    }
}

/// Calls that come back (issue 15): A -> B -> A re-enters the monitors A's thread holds, and
/// ping-pong recursion between two domains ends in StackOverflowError bounded by -Xss (also
/// with a large -Xss, where each hop's Java stack must cost only what it touches).
#[test]
fn reentrant_calls_and_deep_ping_pong() {
    let dir = compile("Reentry");
    for (opts, env) in [
        (&[][..], &[][..]),
        (&["-Xss64m"][..], &[][..]),
        (
            &[][..],
            &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")][..],
        ),
    ] {
        let out = jxvm()
            .args(opts)
            .arg("-cp")
            .arg(&dir)
            .arg("Reentry")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "Reentry {opts:?} failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let oks = checks(&stdout, 4);
        assert!(
            oks.contains(&"ok ping-pong recursion between two domains ends in StackOverflowError"),
            "{stdout}"
        );
    }
}

/// Limits on everything a domain holds (issue 15): off-heap memory (memory objects, Unsafe,
/// direct buffers) and class metadata (classes of its loaders, hidden classes) against limits,
/// given back when dropped, freed, unloaded or when the domain ends; children's heaps out of
/// their creator's, their off-heap memory, class metadata and CPU time counted against its
/// limits, their limits within its.
#[test]
fn limits_cover_off_heap_memory_and_nest() {
    let dir = compile("Limits");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Limits", env);
        let oks = checks(&out, 46);
        assert_has(
            &oks,
            &out,
            &[
                "ok one byte more is an OutOfMemoryError",
                "ok a third child's heap does not fit in what is left",
                "ok and its off-heap memory given back",
                "ok then its creator cannot start one",
                "ok a domain whose child spins past the creator's CPU limit is terminated",
                "ok as many again once it dropped their loaders",
                "ok hidden classes count against the same limit",
                "ok as many again once it dropped them",
                "ok then its creator cannot define one",
                "ok and its classes' metadata given back to its creator",
            ],
        );
    }
}

/// Everything a terminated domain held is given back (issue 15): rounds of 100 domains that
/// each fill 4 MiB of heap, load classes and are terminated keep resident memory flat.
#[test]
fn terminated_domains_give_their_memory_back() {
    let dir = compile("Rounds");
    let out = jxvm()
        .arg("-cp")
        .arg(&dir)
        .args(["Rounds", "5", "100"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "Rounds failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    checks(&stdout, 2);
}

/// The classes of an ended domain, and those of loaders a living domain dropped, are unloaded
/// (issue 15): rounds of domains that define 2,000 classes each, and rounds of as many classes
/// of dropped loaders in the launcher's domain, keep resident memory flat, and the JDK code
/// they ran through forgets them (later domains' classes sort by their own compareTo);
/// `-Xlog:class+unload` names them.
#[test]
fn ended_domains_classes_are_unloaded() {
    let dir = compile("Unloading");
    for (env, args) in [
        (&[][..], ["5", "2000"]),
        (PLAIN_AND_STRESSED[1], ["3", "300"]),
    ] {
        let out = jxvm()
            .arg("-Xlog:class+unload")
            .arg("-cp")
            .arg(&dir)
            .arg("Unloading")
            .args(args)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success() && !stdout.contains("FAILED"),
            "Unloading failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        checks(&stdout, 10);
        assert!(
            stdout.contains("[info][class,unload] unloading class Unloading$Payload 0x")
                && stdout.contains("[info][class,unload] unloading class Unloading$Up 0x"),
            "no unloading logged:\n{stdout}"
        );
        assert!(
            stdout.contains("classes unloaded (ended domains [], ")
                && stdout.contains(" unreachable loaders or hidden classes)"),
            "no unloading of a living domain's dropped loaders logged:\n{stdout}"
        );
    }
}

/// Terminating a domain whose thread is inside a call to another (issue 15): not alive and its
/// services refuse calls at once, the callee unharmed, the end once the thread leaves it.
#[test]
fn terminating_a_caller_mid_call() {
    let dir = compile("MidCall");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "MidCall", env);
        checks(&out, 7);
    }
}

/// An ended domain's descriptors are closed (issue 15): domains that open files, sockets,
/// channels, selectors, pipes, directory streams, watch services and child processes' pipes,
/// and close none, leave the process's descriptor count as it was, whether terminated or ended
/// by returning; closing a domain's standard streams leaves the process's open; a domain with
/// a descriptor limit gets "Too many open files" past it, and its children no more than it;
/// a child's descriptors count against its creator's limit; child processes count as
/// descriptors, are killed when their domain ends, and a domain signals only its own.
#[test]
fn ended_domains_descriptors_are_closed() {
    let dir = compile("HostResources");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "HostResources", env);
        let oks = checks(&out, 19);
        assert_has(
            &oks,
            &out,
            &[
                "ok it kills a child of its own",
                "ok it cannot kill a process it did not start",
                "ok and its child processes are killed",
            ],
        );
        assert!(
            oks.iter().any(|l| l.starts_with(
                "ok a child's 30 descriptors leave its creator 10 of their 40, all 40 once it ended"
            )),
            "{out}"
        );
    }
}

/// Class and method ids (issue 15), with few of them (`JXVM_ID_CAPACITY`): defining classes
/// until none is left ends in `OutOfMemoryError: Metaspace`, not a crash; the ids of classes
/// dropped and unloaded, in this domain or with an ended one, are reused by new classes, which
/// initialize and run as new; an exception keeps the classes its trace went through.
#[test]
fn class_ids_run_out_cleanly_and_are_reused() {
    let dir = compile("Ids");
    let out = run(&dir, "Ids", &[("JXVM_ID_CAPACITY", "65536")]);
    checks(&out, 6);
}

/// sun.misc.Unsafe in an untrusted domain (issue 15): confined to the program's own objects'
/// fields, arrays and native memory, no raw reads elsewhere, no forged references, nothing a
/// reflection could not open; the JDK's own uses work; a trusted domain keeps java's Unsafe.
#[test]
fn unsafe_is_confined_in_untrusted_domains() {
    let dir = compile("Confined");
    for env in PLAIN_AND_STRESSED {
        let out = run(&dir, "Confined", env);
        let oks = checks(&out, 34);
        assert_has(
            &oks,
            &out,
            &[
                "ok [untrusted] a raw read of an address it did not allocate",
                "ok [untrusted] a reference read of a long field (a forged reference)",
                "ok [child] a domain an untrusted one creates is never trusted",
                "ok [trusted] Unsafe reaches the JDK's fields",
            ],
        );
    }
}
