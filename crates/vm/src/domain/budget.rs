//! Budgets: what a domain and all the domains it created, and they in turn, may use together
//! (JX: resources nest). A domain's budget holds its limits and points at its creator's; a
//! charge (off-heap bytes, the heap a child reserves) is made on every budget of the chain and
//! refused, undone, if any would pass its limit, so a subtree never holds more than its root
//! may. CPU time is measured per domain, not charged: the watchdog adds each live domain's to
//! its ancestors' (`subtree_cpu`), and an ended domain's is kept by its ancestors
//! (`add_ended_cpu`).
//!
//! Owns the counting only; refusing (OutOfMemoryError, DomainException) and terminating are
//! the callers'. Knows nothing of heaps, threads or Java objects.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Limits;
use base::account::Account;

/// A domain's limits and what its subtree uses.
#[derive(Debug)]
pub struct Budget {
    parent: Option<Arc<Budget>>,
    /// The domain's own limits (0: none of its own, though an ancestor's may still bind).
    pub limits: Limits,
    /// Off-heap bytes held by the subtree (memory objects, `Unsafe.allocateMemory`).
    off_heap: AtomicU64,
    /// Class metadata of the classes the subtree owns (estimated, `class::metadata`).
    metadata: AtomicU64,
    /// Descriptors the subtree holds (`port::held`).
    descriptors: AtomicU64,
    /// Heap limits of the live children (their heaps come out of this domain's).
    child_heaps: AtomicU64,
    /// CPU time of the subtree's domains that have ended.
    ended_cpu: AtomicU64,
    /// Threads of the subtree running now (each domain's main and component threads and the
    /// threads its programs started; not those its class library starts at boot).
    threads: AtomicU64,
}

impl Budget {
    /// The budget of a domain created by the one owning `parent` (None: by the VM itself).
    pub fn new(parent: Option<Arc<Budget>>, limits: Limits) -> Arc<Budget> {
        Arc::new(Budget {
            parent,
            limits,
            off_heap: AtomicU64::new(0),
            metadata: AtomicU64::new(0),
            descriptors: AtomicU64::new(0),
            child_heaps: AtomicU64::new(0),
            ended_cpu: AtomicU64::new(0),
            threads: AtomicU64::new(0),
        })
    }

    /// This budget and its ancestors, innermost first.
    pub fn chain(&self) -> impl Iterator<Item = &Budget> {
        std::iter::successors(Some(self), |b| b.parent.as_deref())
    }

    pub fn parent(&self) -> Option<&Arc<Budget>> {
        self.parent.as_ref()
    }

    /// Adds `n` to `counter` of every budget from `first` up, unless one would pass its
    /// `limit` (0: none); then nothing is charged.
    fn charge(
        first: Option<&Budget>,
        n: u64,
        counter: fn(&Budget) -> &AtomicU64,
        limit: fn(&Limits) -> u64,
    ) -> bool {
        let chain = std::iter::successors(first, |b| b.parent.as_deref());
        for (i, b) in chain.clone().enumerate() {
            let max = limit(&b.limits);
            let ok = counter(b)
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                    let now = used.checked_add(n)?;
                    (max == 0 || now <= max).then_some(now)
                })
                .is_ok();
            if !ok {
                for b in chain.take(i) {
                    counter(b).fetch_sub(n, Ordering::AcqRel);
                }
                return false;
            }
        }
        true
    }

    fn release(first: Option<&Budget>, n: u64, counter: fn(&Budget) -> &AtomicU64) {
        for b in std::iter::successors(first, |b| b.parent.as_deref()) {
            counter(b).fetch_sub(n, Ordering::AcqRel);
        }
    }

    /// Reserves `bytes` of off-heap memory for this domain; false if it or an ancestor would
    /// pass its off-heap limit.
    pub fn reserve_off_heap(&self, bytes: u64) -> bool {
        let r = Resource::OffHeap;
        Self::charge(Some(self), bytes, r.counter(), r.limit())
    }

    /// Gives back off-heap bytes reserved with [`Budget::reserve_off_heap`].
    pub fn release_off_heap(&self, bytes: u64) {
        Self::release(Some(self), bytes, Resource::OffHeap.counter())
    }

    /// Counts a thread starting in this domain; false if it or an ancestor runs as many
    /// threads as its limit allows.
    pub fn start_thread(&self) -> bool {
        Self::charge(Some(self), 1, |b| &b.threads, |l| l.max_threads as u64)
    }

    /// A thread counted by [`Budget::start_thread`] has ended.
    pub fn end_thread(&self) {
        Self::release(Some(self), 1, |b| &b.threads)
    }

    /// Off-heap bytes the subtree holds.
    pub fn off_heap_used(&self) -> u64 {
        self.off_heap.load(Ordering::Acquire)
    }

    /// Reserves a child's heap limit out of this domain's and its ancestors' (each one's
    /// children's heaps may sum to at most its own heap limit); false if that does not fit.
    pub fn reserve_child_heap(&self, bytes: u64) -> bool {
        Self::charge(Some(self), bytes, |b| &b.child_heaps, |l| l.heap_bytes)
    }

    /// Gives back a child's heap reserved with [`Budget::reserve_child_heap`].
    pub fn release_child_heap(&self, bytes: u64) {
        Self::release(Some(self), bytes, |b| &b.child_heaps)
    }

    /// The heap a new child may reserve at most: the least room left along the chain (None
    /// if no budget of the chain limits the heap).
    pub fn child_heap_room(&self) -> Option<u64> {
        self.chain()
            .filter(|b| b.limits.heap_bytes != 0)
            .map(|b| {
                b.limits
                    .heap_bytes
                    .saturating_sub(b.child_heaps.load(Ordering::Acquire))
            })
            .min()
    }

    /// Records the CPU time of a descendant that ended with every ancestor of it (this budget
    /// being the ended domain's parent's).
    pub fn add_ended_cpu(&self, nanos: u64) {
        for b in self.chain() {
            b.ended_cpu.fetch_add(nanos, Ordering::AcqRel);
        }
    }

    /// CPU time of the subtree's ended domains.
    pub fn ended_cpu(&self) -> u64 {
        self.ended_cpu.load(Ordering::Acquire)
    }

    /// The tightest limit of the chain for one kind (0: none anywhere).
    pub fn tightest(&self, limit: fn(&Limits) -> u64) -> u64 {
        self.chain()
            .map(|b| limit(&b.limits))
            .filter(|&l| l != 0)
            .min()
            .unwrap_or(0)
    }
}

/// A kind of resource a budget counts that the layers below charge through an [`Account`].
#[derive(Clone, Copy, Debug)]
pub enum Resource {
    OffHeap,
    Metadata,
    Descriptors,
}

impl Resource {
    fn counter(self) -> fn(&Budget) -> &AtomicU64 {
        match self {
            Resource::OffHeap => |b| &b.off_heap,
            Resource::Metadata => |b| &b.metadata,
            Resource::Descriptors => |b| &b.descriptors,
        }
    }

    fn limit(self) -> fn(&Limits) -> u64 {
        match self {
            Resource::OffHeap => |l| l.off_heap_bytes,
            Resource::Metadata => |l| l.metadata_bytes,
            Resource::Descriptors => |l| l.max_descriptors.into(),
        }
    }
}

/// One kind of resource of one budget, as the layers below charge it.
struct Charged {
    budget: Arc<Budget>,
    resource: Resource,
}

impl Account for Charged {
    fn reserve(&self, n: u64) -> bool {
        let r = self.resource;
        Budget::charge(Some(&self.budget), n, r.counter(), r.limit())
    }
    fn release(&self, n: u64) {
        Budget::release(Some(&self.budget), n, self.resource.counter())
    }
}

impl Budget {
    /// The account through which `resource` is charged to this budget and its ancestors.
    pub fn account(self: &Arc<Self>, resource: Resource) -> Arc<dyn Account> {
        Arc::new(Charged {
            budget: self.clone(),
            resource,
        })
    }
}

/// Each budget's subtree CPU time: `own` lists the live domains' budgets with their own CPU
/// time; every one's time is added to itself and its ancestors (keyed by budget address), and
/// each budget's ended descendants are added to it.
pub fn subtree_cpu(own: &[(Arc<Budget>, u64)]) -> rustc_hash::FxHashMap<usize, u64> {
    let mut total = rustc_hash::FxHashMap::default();
    for (b, cpu) in own {
        for a in b.chain() {
            *total.entry(a as *const Budget as usize).or_insert(0) += cpu;
        }
    }
    for (b, _) in own {
        *total.entry(Arc::as_ptr(b) as usize).or_insert(0) += b.ended_cpu();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(heap: u64, off_heap: u64) -> Limits {
        Limits {
            heap_bytes: heap,
            off_heap_bytes: off_heap,
            ..Limits::default()
        }
    }

    #[test]
    fn off_heap_is_charged_to_every_ancestor_and_refused_past_any_limit() {
        let root = Budget::new(None, limits(0, 0));
        let parent = Budget::new(Some(root.clone()), limits(0, 100));
        let child = Budget::new(Some(parent.clone()), limits(0, 80));
        assert!(child.reserve_off_heap(60));
        assert_eq!((root.off_heap_used(), parent.off_heap_used()), (60, 60));
        assert!(!child.reserve_off_heap(30), "past the child's own limit");
        assert!(parent.reserve_off_heap(40));
        assert!(
            !child.reserve_off_heap(1),
            "past the parent's limit: the subtree's total"
        );
        assert_eq!(
            (
                child.off_heap_used(),
                parent.off_heap_used(),
                root.off_heap_used()
            ),
            (60, 100, 100),
            "a refused charge is undone"
        );
        child.release_off_heap(60);
        assert_eq!(
            (
                child.off_heap_used(),
                parent.off_heap_used(),
                root.off_heap_used()
            ),
            (0, 40, 40)
        );
        assert!(!child.reserve_off_heap(u64::MAX), "overflow is refused");
    }

    #[test]
    fn threads_of_children_count_against_the_parents_limit() {
        let parent = Budget::new(
            None,
            Limits {
                max_threads: 3,
                ..Limits::default()
            },
        );
        let child = Budget::new(
            Some(parent.clone()),
            Limits {
                max_threads: 3,
                ..Limits::default()
            },
        );
        assert!(parent.start_thread() && child.start_thread() && child.start_thread());
        assert!(
            !child.start_thread(),
            "the parent's three are used up, the child's own limit is not"
        );
        assert!(!parent.start_thread());
        child.end_thread();
        assert!(parent.start_thread());
    }

    #[test]
    fn children_heaps_come_out_of_the_parents() {
        let parent = Budget::new(None, limits(64, 0));
        let child = Budget::new(Some(parent.clone()), limits(32, 0));
        assert_eq!(parent.child_heap_room(), Some(64));
        assert!(parent.reserve_child_heap(32));
        assert!(
            child.reserve_child_heap(16),
            "a grandchild out of the child's 32"
        );
        assert_eq!(child.child_heap_room(), Some(16));
        assert_eq!(
            parent.child_heap_room(),
            Some(16),
            "the grandchild's heap counts against the parent's too"
        );
        assert!(!parent.reserve_child_heap(32));
        parent.release_child_heap(32);
        assert!(parent.reserve_child_heap(32));
    }

    #[test]
    fn cpu_of_live_and_ended_descendants_adds_up_along_the_chain() {
        let root = Budget::new(None, Limits::default());
        let a = Budget::new(Some(root.clone()), Limits::default());
        let b = Budget::new(Some(a.clone()), Limits::default());
        a.add_ended_cpu(5);
        let total = subtree_cpu(&[(root.clone(), 1), (a.clone(), 10), (b.clone(), 100)]);
        assert_eq!(total[&(Arc::as_ptr(&b) as usize)], 100);
        assert_eq!(total[&(Arc::as_ptr(&a) as usize)], 115);
        assert_eq!(total[&(Arc::as_ptr(&root) as usize)], 116);
        assert_eq!(root.tightest(|l| l.cpu_nanos), 0);
    }
}
