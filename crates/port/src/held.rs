//! Which host resources each owner holds: file descriptors, directory streams, child
//! processes, file mappings and mount-table handles, by the owner they were created for. An
//! owner is the system (the VM and the launcher's domain, which never end) or a created domain,
//! named by its number; the port knows nothing more of domains.
//!
//! Every port call that creates such a resource takes its [`Owner`] and records it here; every
//! call that closes one takes the owner too and forgets it. When a created domain ends,
//! [`give_back`] closes what it still holds and kills its child processes, so a domain that
//! leaks descriptors (or a hostile one that opens them on purpose) cannot exhaust the
//! process's. While it lives, its descriptors and running children are charged, one each, to
//! the account it was given ([`open_account`]: its budget, so they count against its
//! descriptor limit and its creators'); past it a creation fails with EMFILE.
//!
//! A created domain may close, `dup2` onto, unmap, signal or wait for only what it holds; its
//! standard streams (descriptors 0-2) are the process's and are never closed for it. The table
//! is keyed by descriptor number (process id): a number reused after a close belongs to
//! whoever created it last, so a domain's end can never close another owner's descriptor —
//! provided every close goes through the port, which is why this module owns the bookkeeping
//! and the closing functions call it.
//!
//! Owns the table; its only system calls close what an ended owner held or what an owner past
//! its limit was refused.

use super::{Errno, PortResult};
use base::account::Account;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// Who a host resource is held for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Owner(u64);

impl Owner {
    /// The VM itself and the launcher's domain: never given back.
    pub const SYSTEM: Owner = Owner(u64::MAX);

    /// Created domain number `id`.
    pub fn domain(id: u32) -> Owner {
        Owner(id.into())
    }

    fn is_system(self) -> bool {
        self == Owner::SYSTEM
    }
}

/// A held resource.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(super) enum Handle {
    Fd(i32),
    /// A `DIR*` (as Java holds it).
    Dir(u64),
    /// A mount table read into memory (`fs::mount_table_open`).
    MountTable(u64),
    /// A file mapping: its address and length.
    Mapping(usize, usize),
    /// A child process not yet waited for: its process id.
    Process(i32),
}

impl Handle {
    /// Whether it counts against a descriptor limit: it takes one of the process's
    /// descriptors, or is a running child process (so a domain cannot start processes
    /// without bound).
    fn is_counted(self) -> bool {
        matches!(self, Handle::Fd(_) | Handle::Dir(_) | Handle::Process(_))
    }
}

/// Everything held, with the account each owner's counted handles are charged to.
#[derive(Default)]
struct Table {
    held: FxHashMap<Handle, Owner>,
    accounts: FxHashMap<Owner, Arc<dyn Account>>,
}

impl Table {
    /// Records `h` as `owner`'s (charged already, if it counts: [`Table::reserve`]).
    fn insert(&mut self, h: Handle, owner: Owner) {
        if let Some(before) = self.held.insert(h, owner) {
            self.uncount(h, before);
        }
    }

    fn remove(&mut self, h: &Handle) {
        if let Some(owner) = self.held.remove(h) {
            self.uncount(*h, owner);
        }
    }

    fn uncount(&self, h: Handle, owner: Owner) {
        if h.is_counted()
            && let Some(a) = self.accounts.get(&owner)
        {
            a.release(1);
        }
    }

    /// Charges one more counted handle to `owner`; false if its account says no.
    fn reserve(&self, owner: Owner, h: Handle) -> bool {
        !h.is_counted() || self.accounts.get(&owner).is_none_or(|a| a.reserve(1))
    }
}

static HELD: Mutex<Option<Table>> = Mutex::new(None);

fn with<T>(f: impl FnOnce(&mut Table) -> T) -> T {
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    f(held.get_or_insert_with(Table::default))
}

/// The descriptors and child processes of `owner` (a created domain) are charged to
/// `account` (one each): past what it allows, creating one fails as the process's own limit
/// would (EMFILE).
pub fn open_account(owner: Owner, account: Arc<dyn Account>) {
    if !owner.is_system() {
        with(|t| t.accounts.insert(owner, account));
    }
}

/// `h`, not counted (a mapping, a mount table), was just created for `owner` (replacing
/// whatever held an earlier resource of that number, which was closed).
pub(super) fn took(owner: Owner, h: Handle) {
    debug_assert!(!h.is_counted(), "{h:?} must be admitted");
    with(|t| t.insert(h, owner));
}

/// `h`, a descriptor, directory stream or child process just created, becomes `owner`'s if
/// its account allows; false if not (the caller closes it and fails with EMFILE).
pub(super) fn admit(owner: Owner, h: Handle) -> bool {
    with(|t| {
        let room = t.reserve(owner, h);
        if room {
            t.insert(h, owner);
        }
        room
    })
}

/// `owner`'s `from` became `to` (a directory stream opened on a descriptor it held), which
/// takes its place, and its charge, in the table.
pub(super) fn became(owner: Owner, from: Handle, to: Handle) -> PortResult<()> {
    with(|t| {
        if !owner.is_system() && t.held.get(&from) != Some(&owner) {
            return Err(Errno::EBADF);
        }
        t.held.remove(&from);
        t.insert(to, owner);
        Ok(())
    })
}

/// Descriptor `fd`, just created, is `owner`'s; past `owner`'s limit it is closed and the
/// result is EMFILE ("Too many open files").
pub(super) fn took_fd(owner: Owner, fd: i32) -> PortResult<i32> {
    if admit(owner, Handle::Fd(fd)) {
        Ok(fd)
    } else {
        let _ = super::fs::close_raw(fd);
        Err(Errno::EMFILE)
    }
}

/// Both ends of a new pipe or socket pair are `owner`'s, or neither (closed, EMFILE).
pub(super) fn took_pair(owner: Owner, a: i32, b: i32) -> PortResult<(i32, i32)> {
    let a = took_fd(owner, a).inspect_err(|_| {
        let _ = super::fs::close_raw(b);
    })?;
    match took_fd(owner, b) {
        Ok(b) => Ok((a, b)),
        Err(e) => {
            with(|t| t.remove(&Handle::Fd(a)));
            let _ = super::fs::close_raw(a);
            Err(e)
        }
    }
}

/// What closing `h` for `owner` should do.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Closing {
    /// Close it (it is forgotten already).
    Close,
    /// Leave it open and report success: a created domain's standard stream.
    Keep,
}

/// `owner` closes `h`: forgets it, or refuses (EBADF) when a created domain names something it
/// does not hold.
pub(super) fn letting_go(owner: Owner, h: Handle) -> PortResult<Closing> {
    with(|t| match t.held.get(&h) {
        Some(&o) if o == owner || owner.is_system() => {
            t.remove(&h);
            Ok(Closing::Close)
        }
        _ if owner.is_system() => Ok(Closing::Close),
        _ if matches!(h, Handle::Fd(0..=2)) => Ok(Closing::Keep),
        _ => Err(Errno::EBADF),
    })
}

/// Whether `owner` may use `h` in a way that changes what it is (a `dup2` onto it): its own,
/// or anything for the system.
pub(super) fn holds(owner: Owner, h: Handle) -> bool {
    owner.is_system() || with(|t| t.held.get(&h) == Some(&owner))
}

/// Whether `h` is held at all (a directory stream handle Java passed back is one of ours).
pub(super) fn is_live(h: Handle) -> bool {
    with(|t| t.held.contains_key(&h))
}

/// How many resources `owner` holds (for the tests: the table counts descriptors itself).
#[cfg(test)]
fn count(owner: Owner) -> usize {
    with(|t| t.held.values().filter(|&&o| o == owner).count())
}

/// Closes everything `owner` (a created domain that has ended: none of its threads runs)
/// still holds and kills its child processes; what they were charged goes back to its
/// account, which is forgotten. Returns how many resources that was.
pub fn give_back(owner: Owner) -> usize {
    if owner.is_system() {
        return 0;
    }
    let left: Vec<Handle> = with(|t| {
        let mine: Vec<Handle> = t
            .held
            .iter()
            .filter(|&(_, &o)| o == owner)
            .map(|(&h, _)| h)
            .collect();
        for h in &mine {
            t.remove(h);
        }
        t.accounts.remove(&owner);
        mine
    });
    let mut children = Vec::new();
    for &h in &left {
        close_forgotten(h, &mut children);
    }
    super::process::kill_and_reap(children);
    left.len()
}

/// Closes `h`, already taken out of the table; a child process goes on `children`, to be
/// killed and reaped with the others.
fn close_forgotten(h: Handle, children: &mut Vec<i32>) {
    let _: Result<(), Errno> = match h {
        Handle::Fd(fd) => super::fs::close_raw(fd),
        Handle::Dir(d) => super::fs::closedir_raw(d),
        Handle::MountTable(t) => {
            super::fs::drop_mount_table(t);
            Ok(())
        }
        Handle::Mapping(addr, len) => super::fs::munmap_raw(addr, len),
        Handle::Process(pid) => {
            children.push(pid);
            Ok(())
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_closes_only_what_it_holds() {
        let (a, b) = (Owner::domain(9001), Owner::domain(9002));
        let h = Handle::Fd(-9001);
        assert!(admit(a, h));
        assert_eq!(count(a), 1);
        assert_eq!(letting_go(b, h), Err(Errno::EBADF));
        assert!(!holds(b, h) && holds(a, h) && holds(Owner::SYSTEM, h));
        assert_eq!(letting_go(b, Handle::Fd(1)), Ok(Closing::Keep));
        assert_eq!(letting_go(a, h), Ok(Closing::Close));
        assert_eq!(count(a), 0);
        assert!(!is_live(h));
    }

    use base::account::Limited;

    #[test]
    fn descriptors_past_the_limit_are_refused() {
        let a = Owner::domain(9021);
        let account = Limited::new(2);
        open_account(a, account.clone());
        assert!(admit(a, Handle::Fd(-9021)) && admit(a, Handle::Dir(9021)));
        assert!(!admit(a, Handle::Fd(-9022)), "a third descriptor");
        took(a, Handle::Mapping(9021, 1));
        assert_eq!(letting_go(a, Handle::Fd(-9021)), Ok(Closing::Close));
        assert!(admit(a, Handle::Fd(-9022)), "room again after a close");
        assert_eq!(count(a), 3);
        let b = Owner::domain(9022);
        assert!(admit(b, Handle::Fd(-9022)));
        assert!(
            admit(a, Handle::Fd(-9023)),
            "a number reused by another owner is not counted"
        );
        assert_eq!(letting_go(b, Handle::Fd(-9022)), Ok(Closing::Close));
        // give_back would close these (made-up) handles: forget them first.
        for h in [Handle::Dir(9021), Handle::Fd(-9023)] {
            assert_eq!(letting_go(a, h), Ok(Closing::Close));
        }
        assert_eq!(letting_go(a, Handle::Mapping(9021, 1)), Ok(Closing::Close));
        // Descriptor -9024 does not exist: closing it does nothing.
        assert!(admit(a, Handle::Fd(-9024)));
        assert_eq!(account.used(), 1);
        assert_eq!(give_back(a), 1);
        assert_eq!(
            account.used(),
            0,
            "what an ended owner held is given back to its account"
        );
    }

    #[test]
    fn a_reused_number_belongs_to_its_last_creator() {
        let (a, b) = (Owner::domain(9011), Owner::domain(9012));
        let h = Handle::MountTable(u64::MAX - 9011);
        took(a, h);
        took(b, h);
        assert_eq!(count(a), 0);
        assert_eq!(count(b), 1);
        assert_eq!(give_back(a), 0);
        assert!(is_live(h));
        assert_eq!(give_back(b), 1);
        assert!(!is_live(h));
    }
}
