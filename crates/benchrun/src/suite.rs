//! The suites the runner knows and their kernels: the classic kernels of `bench/java` (suite
//! `main`, run by `bench/run`), the garbage-collector kernels of `bench/gc` (suite `gc`, run
//! by `bench/gc-run`) and the thread kernels of `bench/threads` (suite `threads`, run by
//! `bench/threads-run`), each kernel with its description, its VM options and, where it
//! allocates a known volume, that volume; and the VMs each suite compares.

use crate::vms::{self, Pair, Vm};

/// One benchmark program: a class `name` in the unnamed package taking the size as argument.
#[derive(Debug)]
pub struct Kernel {
    pub name: &'static str,
    pub what: &'static str,
    /// Options given to every VM alike, before the class path.
    pub vm_args: &'static [&'static str],
    /// Megabytes the program allocates at size small and at size large (counted by the program
    /// with HotSpot's object sizes), for the MB/s column.
    pub allocated_mb: Option<[f64; 2]>,
}

impl Kernel {
    /// Whether the VMs print their GC log (and so their pauses) on this kernel.
    pub fn logs_gc(&self) -> bool {
        self.vm_args.contains(&"-Xlog:gc")
    }

    /// The megabytes allocated at `size`, if the kernel's volume is known.
    pub fn allocated_mb(&self, size: &str) -> Option<f64> {
        self.allocated_mb
            .map(|[small, large]| if size == "large" { large } else { small })
    }
}

/// The tables a suite's report gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Wall times and ratios, one line per kernel.
    Times,
    /// Wall time, peak RSS, allocation rate and GC pauses, one line per kernel and VM.
    Gc,
    /// The figures the programs measure themselves (`metric` lines on stderr), one line per
    /// figure, then the wall times.
    Metrics,
}

/// A set of kernels run together, with the files it writes.
#[derive(Debug)]
pub struct Suite {
    pub name: &'static str,
    /// The heading of the report.
    pub title: &'static str,
    pub layout: Layout,
    pub kernels: &'static [Kernel],
    /// The VMs each kernel runs on, in the order of the tables.
    pub vms: &'static [Vm],
    /// The ratio columns of the time table.
    pub ratios: &'static [Pair],
    /// Whether each kernel gets, in the first iteration, one more jxvm run with
    /// `-XX:+PrintCompilation` for the compile table and the warm-up runs (`Warmup`) on jxvm and
    /// java, none of them timed in the medians.
    pub jit_figures: bool,
    /// The report is `<results>/<stem>.md` (and `<stem>.png` with a chart).
    pub stem: &'static str,
    pub chart: bool,
    pub default_iterations: usize,
    pub default_timeout_secs: f64,
}

impl Suite {
    /// The suite called `name`, or an error naming the suites.
    pub fn named(name: &str) -> Result<&'static Suite, String> {
        SUITES
            .iter()
            .copied()
            .find(|s| s.name == name)
            .ok_or_else(|| {
                let all: Vec<_> = SUITES.iter().map(|s| s.name).collect();
                format!("unknown suite {name}; the suites: {}", all.join(" "))
            })
    }

    /// The kernel called `name` (any case).
    pub fn kernel(&self, name: &str) -> Option<&'static Kernel> {
        self.kernels
            .iter()
            .find(|k| k.name.eq_ignore_ascii_case(name))
    }

    pub fn kernel_names(&self) -> Vec<&'static str> {
        self.kernels.iter().map(|k| k.name).collect()
    }
}

const fn plain(name: &'static str, what: &'static str) -> Kernel {
    Kernel {
        name,
        what,
        vm_args: &[],
        allocated_mb: None,
    }
}

pub const SUITES: &[&Suite] = &[&MAIN, &GC, &THREADS];

pub const MAIN: Suite = Suite {
    name: "main",
    title: "jxvm benchmarks",
    layout: Layout::Times,
    kernels: &[
        plain(
            "Series",
            "Java Grande: Fourier coefficients (pow, sin, cos)",
        ),
        plain("LUFact", "Java Grande: LU factorisation and solve"),
        plain("SOR", "Java Grande: successive over-relaxation"),
        plain("FFT", "Java Grande: complex radix-2 FFT"),
        plain("SparseMatmult", "Java Grande: sparse matrix times vector"),
        plain("HeapSort", "Java Grande: heap sort of ints"),
        plain("Crypt", "Java Grande: IDEA encrypt and decrypt"),
        plain("NBody", "Benchmarks Game: n-body"),
        plain("SpectralNorm", "Benchmarks Game: spectral-norm"),
        plain("Fannkuch", "Benchmarks Game: fannkuch-redux"),
        plain("BinaryTrees", "Benchmarks Game: binary-trees (allocation)"),
        plain("Mandelbrot", "Benchmarks Game: mandelbrot"),
        plain("Fasta", "Benchmarks Game: fasta"),
        plain(
            "CollStrings",
            "HashMap, ArrayList, StringBuilder, split, sort",
        ),
        plain(
            "Dispatch",
            "virtual and interface calls, mono- to megamorphic",
        ),
        plain("Hello", "start-up: Hello World"),
    ],
    stem: "latest",
    vms: vms::FIVE,
    ratios: vms::FIVE_RATIOS,
    jit_figures: true,
    chart: true,
    default_iterations: 5,
    default_timeout_secs: 300.0,
};

pub const GC: Suite = Suite {
    name: "gc",
    title: "jxvm garbage-collector benchmarks",
    layout: Layout::Gc,
    kernels: &[
        Kernel {
            name: "GcBinaryTrees",
            what: "Benchmarks Game binary-trees, depth 16 (small) or 18 (large), in a 64 MB heap",
            vm_args: &["-Xmx64m", "-Xlog:gc"],
            allocated_mb: None,
        },
        Kernel {
            name: "GcAllocRate",
            what: "2 GB (small) or 20 GB (large) of short-lived nodes and int arrays beside \
                   about 50 MB live that is replaced as it runs, in a 128 MB heap",
            vm_args: &["-Xmx128m", "-Xlog:gc"],
            allocated_mb: Some([2048.0, 20480.0]),
        },
        Kernel {
            name: "GcPauses",
            what: "a 200 000-entry HashMap (about 50 MB) rewritten as it runs, with about 1 GB \
                   (small) or 4 GB (large) of garbage, in a 128 MB heap",
            vm_args: &["-Xmx128m", "-Xlog:gc"],
            allocated_mb: None,
        },
    ],
    stem: "gc",
    vms: vms::THREE,
    ratios: vms::THREE_RATIOS,
    jit_figures: false,
    chart: false,
    default_iterations: 3,
    default_timeout_secs: 900.0,
};

/// Threads, monitors and java.util.concurrent; each program times its own loops (after a
/// warm-up) and prints the figures as `metric` lines.
pub const THREADS: Suite = Suite {
    name: "threads",
    title: "jxvm thread benchmarks",
    layout: Layout::Metrics,
    kernels: &[
        plain(
            "LockUncontended",
            "ns per loop iteration on one thread: synchronized block on a private object, \
             synchronized method, ReentrantLock lock/unlock, and the same loops without a lock",
        ),
        plain(
            "LockContended",
            "ns per increment of one counter by 2 threads, under one monitor and under one \
             ReentrantLock",
        ),
        plain(
            "ThreadStart",
            "us per Thread start and join of an empty Runnable",
        ),
        plain(
            "PingPong",
            "us per round trip of a token between 2 threads: LockSupport.park/unpark, and \
             wait/notify",
        ),
        plain(
            "Barrier",
            "us per round of 2 threads at a CyclicBarrier of 2 parties (Java Grande's barrier)",
        ),
        plain(
            "ForkJoin",
            "ForkJoinPool(2) RecursiveTask sum of 2^20 longs in leaves of 256: ms per sum, ns \
             per task",
        ),
        plain(
            "ParallelSpeedup",
            "Mandelbrot 400 x 400 (small) or 4000 x 4000 (large), rows dealt to 1 and to 2 \
             threads: ms each and the speed-up",
        ),
    ],
    stem: "threads",
    vms: vms::THREE,
    ratios: vms::THREE_RATIOS,
    jit_figures: false,
    chart: false,
    default_iterations: 3,
    default_timeout_secs: 300.0,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_and_kernels_by_name() {
        assert_eq!(Suite::named("gc").map(|s| s.stem), Ok("gc"));
        assert!(
            Suite::named("nope")
                .unwrap_err()
                .contains("main gc threads")
        );
        assert_eq!(
            Suite::named("threads").map(|s| (s.stem, s.layout)),
            Ok(("threads", Layout::Metrics))
        );
        assert_eq!(
            GC.kernel("gcallocrate").map(|k| k.name),
            Some("GcAllocRate")
        );
        assert!(MAIN.kernel("GcPauses").is_none());
        assert_eq!((MAIN.vms.len(), MAIN.jit_figures), (5, true));
        assert_eq!((GC.vms, THREADS.jit_figures), (vms::THREE, false));
    }

    #[test]
    fn allocation_volume_by_size() {
        let k = GC.kernel("GcAllocRate").unwrap();
        assert_eq!(k.allocated_mb("small"), Some(2048.0));
        assert_eq!(k.allocated_mb("large"), Some(20480.0));
        assert!(k.logs_gc());
        assert_eq!(MAIN.kernels[0].allocated_mb("small"), None);
        assert!(!MAIN.kernels[0].logs_gc());
    }
}
