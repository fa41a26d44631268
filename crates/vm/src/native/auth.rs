//! Natives of jdk.security.auth: `com.sun.security.auth.module.UnixSystem`, the process's
//! user (the JAAS UnixLoginModule's, and Hadoop's), as the JDK's libjaas fills it.

use super::{Registry, nonnull};
use crate::class::BasicType;
use crate::thread::{JResult, JThread};

pub fn register(r: &mut Registry) {
    r.add(
        "com/sun/security/auth/module/UnixSystem",
        "getUnixInfo",
        "()V",
        get_unix_info,
    );
}

/// Sets `uid`, `gid` (the real ids), `groups` (the supplementary groups) and `username` (the
/// password database's name of the uid; left null when it has none).
fn get_unix_info(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let class = t.frames.last().expect("native frame").method.class;
    let fields = ["username", "uid", "gid", "groups"].map(|name| {
        let desc = match name {
            "username" => "Ljava/lang/String;",
            "groups" => "[J",
            _ => "J",
        };
        class.field(name, desc).map(|f| f.offset as usize)
    });
    let [Some(username), Some(uid_at), Some(gid_at), Some(groups_at)] = fields else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("UnixSystem's fields are not the JDK's"),
        ));
    };
    let host = t.domain.host().clone();
    let (uid, _, gid, _) = host.ids();
    let list: Vec<i64> = host.groups().into_iter().map(i64::from).collect();
    let groups = t.new_array_of(t.vm.classes.primitive(BasicType::Long), list.len() as i32)?;
    groups.array_slice::<i64>().copy_from_slice(&list);
    let h = t.handle(groups);
    let name = match host.user_name(uid as u32) {
        Ok(n) => Some(t.new_string(&String::from_utf8_lossy(&n))?),
        Err(_) => None,
    };
    let groups = t.handle_get(h);
    // The collector may have run while allocating: re-read the receiver.
    let this = nonnull(t, t.arg(0))?;
    this.write::<i64>(uid_at, uid as i64);
    this.write::<i64>(gid_at, gid as i64);
    t.domain.heap.write_ref(this, groups_at, Some(groups));
    t.domain.heap.write_ref(this, username, name);
    Ok(0)
}
