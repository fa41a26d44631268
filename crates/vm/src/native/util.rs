//! Natives of java.util: TimeZone and the atomics' capability query. java.util.zip's natives
//! are in [`super::zip`].

use super::Registry;

pub fn register(r: &mut Registry) {
    r.add(
        "java/util/concurrent/atomic/AtomicLong",
        "VMSupportsCS8",
        "()Z",
        |_, _| Ok(1),
    );
    r.add(
        "java/util/TimeZone",
        "getSystemTimeZoneID",
        "(Ljava/lang/String;)Ljava/lang/String;",
        |t, _| match t.domain.host().system_time_zone() {
            Some(z) => Ok(t.new_string(&z)?.slot()),
            None => Ok(0),
        },
    );
    r.add(
        "java/util/TimeZone",
        "getSystemGMTOffsetID",
        "()Ljava/lang/String;",
        |t, _| {
            let s = t.domain.host().gmt_offset_id();
            Ok(t.new_string(&s)?.slot())
        },
    );
}
