//! Owns the 9P2000.L messages: [`Tmsg`] (client to server) and [`Rmsg`] (server to
//! client), one variant per message with its fields in wire order, the structures they carry,
//! and whole-frame encoding and decoding (`size[4] type[1] tag[2] body`).
//!
//! Message numbers and layouts are those of 9P2000.L (Linux `include/net/9p/9p.h`, diod's
//! `protocol.md`). `Tfsync` carries `datasync[4]` as the Linux client sends it.

use crate::wire::{Data, HEADER, Reader, Wire, WireError, check_size, get_counted};

/// Qid types (`qid.type`).
pub const QTDIR: u8 = 0x80;
pub const QTSYMLINK: u8 = 0x02;
pub const QTFILE: u8 = 0x00;

/// `Tgetattr` request mask bits.
pub const GETATTR_MODE: u64 = 0x1;
pub const GETATTR_NLINK: u64 = 0x2;
pub const GETATTR_UID: u64 = 0x4;
pub const GETATTR_GID: u64 = 0x8;
pub const GETATTR_RDEV: u64 = 0x10;
pub const GETATTR_ATIME: u64 = 0x20;
pub const GETATTR_MTIME: u64 = 0x40;
pub const GETATTR_CTIME: u64 = 0x80;
pub const GETATTR_INO: u64 = 0x100;
pub const GETATTR_SIZE: u64 = 0x200;
pub const GETATTR_BLOCKS: u64 = 0x400;
pub const GETATTR_BASIC: u64 = 0x7ff;
pub const GETATTR_ALL: u64 = 0x3fff;

/// `Tsetattr` valid bits.
pub const SETATTR_MODE: u32 = 0x1;
pub const SETATTR_UID: u32 = 0x2;
pub const SETATTR_GID: u32 = 0x4;
pub const SETATTR_SIZE: u32 = 0x8;
pub const SETATTR_ATIME: u32 = 0x10;
pub const SETATTR_MTIME: u32 = 0x20;
pub const SETATTR_CTIME: u32 = 0x40;
pub const SETATTR_ATIME_SET: u32 = 0x80;
pub const SETATTR_MTIME_SET: u32 = 0x100;

/// `Tlock`/`Tgetlock` lock types and `Rlock` statuses.
pub const LOCK_TYPE_RDLCK: u8 = 0;
pub const LOCK_TYPE_WRLCK: u8 = 1;
pub const LOCK_TYPE_UNLCK: u8 = 2;
pub const LOCK_SUCCESS: u8 = 0;
pub const LOCK_BLOCKED: u8 = 1;
pub const LOCK_ERROR: u8 = 2;
pub const LOCK_GRACE: u8 = 3;
pub const LOCK_FLAGS_BLOCK: u32 = 1;

/// 9P2000.L open flags (`Tlopen`, `Tlcreate`): the protocol fixes them at Linux's x86
/// values, whatever the host's.
pub mod open_flags {
    pub const RDONLY: u32 = 0;
    pub const WRONLY: u32 = 1;
    pub const RDWR: u32 = 2;
    pub const ACCMODE: u32 = 3;
    pub const CREATE: u32 = 0o100;
    pub const EXCL: u32 = 0o200;
    pub const NOCTTY: u32 = 0o400;
    pub const TRUNC: u32 = 0o1000;
    pub const APPEND: u32 = 0o2000;
    pub const NONBLOCK: u32 = 0o4000;
    pub const DSYNC: u32 = 0o10000;
    pub const FASYNC: u32 = 0o20000;
    pub const DIRECT: u32 = 0o40000;
    pub const LARGEFILE: u32 = 0o100000;
    pub const DIRECTORY: u32 = 0o200000;
    pub const NOFOLLOW: u32 = 0o400000;
    pub const NOATIME: u32 = 0o1000000;
    pub const CLOEXEC: u32 = 0o2000000;
    pub const SYNC: u32 = 0o4000000;
}

/// `Tunlinkat` flag: remove a directory.
pub const AT_REMOVEDIR: u32 = 0x200;

/// The protocol version this crate speaks.
pub const VERSION: &str = "9P2000.L";

macro_rules! wire_struct {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct $name { $($(#[$fm])* pub $f: $t),* }
        impl Wire for $name {
            fn put(&self, out: &mut Vec<u8>) {
                $(self.$f.put(out);)*
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
                Ok($name { $($f: <$t as Wire>::get(r)?),* })
            }
        }
    };
}

wire_struct!(
    /// A server's unique identification of a file: `type[1] version[4] path[8]`.
    Qid { qtype: u8, version: u32, path: u64 }
);

/// The qids of an `Rwalk` (`nwqid[2]`, at most 16).
impl Wire for Vec<Qid> {
    fn put(&self, out: &mut Vec<u8>) {
        (self.len().min(usize::from(u16::MAX)) as u16).put(out);
        for q in self {
            q.put(out);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        get_counted(r)
    }
}

wire_struct!(
    /// `Rgetattr`'s body after the tag.
    Attr {
        valid: u64, qid: Qid, mode: u32, uid: u32, gid: u32, nlink: u64, rdev: u64,
        size: u64, blksize: u64, blocks: u64, atime_sec: u64, atime_nsec: u64,
        mtime_sec: u64, mtime_nsec: u64, ctime_sec: u64, ctime_nsec: u64,
        btime_sec: u64, btime_nsec: u64, generation: u64, data_version: u64,
    }
);

wire_struct!(
    /// `Tsetattr`'s body after the fid: which fields to set (`valid`) and their values.
    SetAttr {
        valid: u32, mode: u32, uid: u32, gid: u32, size: u64,
        atime_sec: u64, atime_nsec: u64, mtime_sec: u64, mtime_nsec: u64,
    }
);

wire_struct!(
    /// `Rstatfs`'s body.
    Statfs {
        fs_type: u32, bsize: u32, blocks: u64, bfree: u64, bavail: u64,
        files: u64, ffree: u64, fsid: u64, namelen: u32,
    }
);

wire_struct!(
    /// `Tlock`'s body after the fid.
    Flock { lock_type: u8, flags: u32, start: u64, length: u64, proc_id: u32, client_id: Vec<u8> }
);

wire_struct!(
    /// `Tgetlock`'s body after the fid, and `Rgetlock`'s body.
    Getlock { lock_type: u8, start: u64, length: u64, proc_id: u32, client_id: Vec<u8> }
);

wire_struct!(
    /// One entry of `Rreaddir`'s data: `qid[13] offset[8] type[1] name[s]`.
    Dirent { qid: Qid, offset: u64, dtype: u8, name: Vec<u8> }
);

impl Dirent {
    /// Bytes this entry takes in `Rreaddir` data.
    pub fn wire_len(&self) -> usize {
        13 + 8 + 1 + 2 + self.name.len()
    }

    /// Decodes `Rreaddir` data: a sequence of whole entries.
    pub fn decode_all(data: &[u8]) -> Result<Vec<Dirent>, WireError> {
        let mut r = Reader::new(data);
        let mut out = Vec::new();
        while r.remaining() > 0 {
            out.push(Dirent::get(&mut r)?);
        }
        Ok(out)
    }
}

macro_rules! messages {
    ($(#[$m:meta])* $enum:ident { $($(#[$vm:meta])* $v:ident = $num:literal { $($f:ident : $t:ty),* $(,)? }),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $enum { $($(#[$vm])* $v { $($f: $t),* }),* }

        impl $enum {
            /// Every message type number of this direction.
            pub const TYPES: &'static [u8] = &[$($num),*];

            /// The message type number.
            pub fn type_id(&self) -> u8 {
                match self { $($enum::$v { .. } => $num),* }
            }

            /// The message's name (`Twalk`, `Rlerror`, ...) for a type number.
            pub fn name_of(ty: u8) -> Option<&'static str> {
                match ty {
                    $($num => Some(concat!(stringify!($enum), "::", stringify!($v))),)*
                    _ => None,
                }
            }

            fn put_body(&self, out: &mut Vec<u8>) {
                match self { $($enum::$v { $($f),* } => { $(Wire::put($f, out);)* }),* }
            }

            fn get_body(ty: u8, r: &mut Reader<'_>) -> Result<Self, WireError> {
                match ty {
                    $($num => Ok($enum::$v { $($f: <$t as Wire>::get(r)?),* }),)*
                    _ => Err(WireError::UnknownType(ty)),
                }
            }
        }
    };
}

messages!(
    /// A request, client to server.
    Tmsg {
        Statfs = 8 { fid: u32 },
        Lopen = 12 { fid: u32, flags: u32 },
        Lcreate = 14 { fid: u32, name: Vec<u8>, flags: u32, mode: u32, gid: u32 },
        Symlink = 16 { fid: u32, name: Vec<u8>, target: Vec<u8>, gid: u32 },
        Mknod = 18 { dfid: u32, name: Vec<u8>, mode: u32, major: u32, minor: u32, gid: u32 },
        Rename = 20 { fid: u32, dfid: u32, name: Vec<u8> },
        Readlink = 22 { fid: u32 },
        Getattr = 24 { fid: u32, mask: u64 },
        Setattr = 26 { fid: u32, attr: SetAttr },
        Xattrwalk = 30 { fid: u32, newfid: u32, name: Vec<u8> },
        Xattrcreate = 32 { fid: u32, name: Vec<u8>, size: u64, flags: u32 },
        Readdir = 40 { fid: u32, offset: u64, count: u32 },
        Fsync = 50 { fid: u32, datasync: u32 },
        Lock = 52 { fid: u32, lock: Flock },
        Getlock = 54 { fid: u32, lock: Getlock },
        Link = 70 { dfid: u32, fid: u32, name: Vec<u8> },
        Mkdir = 72 { dfid: u32, name: Vec<u8>, mode: u32, gid: u32 },
        Renameat = 74 { olddirfid: u32, oldname: Vec<u8>, newdirfid: u32, newname: Vec<u8> },
        Unlinkat = 76 { dirfid: u32, name: Vec<u8>, flags: u32 },
        Version = 100 { msize: u32, version: String },
        Auth = 102 { afid: u32, uname: Vec<u8>, aname: Vec<u8>, n_uname: u32 },
        Attach = 104 { fid: u32, afid: u32, uname: Vec<u8>, aname: Vec<u8>, n_uname: u32 },
        Flush = 108 { oldtag: u16 },
        Walk = 110 { fid: u32, newfid: u32, names: Vec<Vec<u8>> },
        Read = 116 { fid: u32, offset: u64, count: u32 },
        Write = 118 { fid: u32, offset: u64, data: Data },
        Clunk = 120 { fid: u32 },
        Remove = 122 { fid: u32 },
    }
);

messages!(
    /// A reply, server to client.
    Rmsg {
        Lerror = 7 { ecode: u32 },
        Statfs = 9 { statfs: Statfs },
        Lopen = 13 { qid: Qid, iounit: u32 },
        Lcreate = 15 { qid: Qid, iounit: u32 },
        Symlink = 17 { qid: Qid },
        Mknod = 19 { qid: Qid },
        Rename = 21 {},
        Readlink = 23 { target: Vec<u8> },
        Getattr = 25 { attr: Attr },
        Setattr = 27 {},
        Xattrwalk = 31 { size: u64 },
        Xattrcreate = 33 {},
        Readdir = 41 { data: Data },
        Fsync = 51 {},
        Lock = 53 { status: u8 },
        Getlock = 55 { lock: Getlock },
        Link = 71 {},
        Mkdir = 73 { qid: Qid },
        Renameat = 75 {},
        Unlinkat = 77 {},
        Version = 101 { msize: u32, version: String },
        Auth = 103 { aqid: Qid },
        Attach = 105 { qid: Qid },
        Flush = 109 {},
        Walk = 111 { qids: Vec<Qid> },
        Read = 117 { data: Data },
        Write = 119 { count: u32 },
        Clunk = 121 {},
        Remove = 123 {},
    }
);

/// Encodes a whole frame: `size[4] type[1] tag[2] body`.
fn encode_frame(ty: u8, tag: u16, payload: usize, body: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    // Room for the data too: growing a 64 KiB frame by doubling copies it several times.
    let mut out = Vec::with_capacity(64 + payload);
    out.extend_from_slice(&[0; 4]);
    out.push(ty);
    tag.put(&mut out);
    body(&mut out);
    let size = u32::try_from(out.len()).unwrap_or(u32::MAX);
    out[..4].copy_from_slice(&size.to_le_bytes());
    out
}

/// The header of a frame: its type and tag, after checking the declared size against the
/// frame's length and `msize`.
pub fn peek_header(frame: &[u8], msize: u32) -> Result<(u8, u16), WireError> {
    if frame.len() < HEADER {
        return Err(WireError::Truncated);
    }
    let mut r = Reader::new(frame);
    let size = r.u32()?;
    check_size(size, msize)?;
    if size as usize != frame.len() {
        return Err(WireError::SizeMismatch {
            declared: size,
            actual: frame.len(),
        });
    }
    Ok((r.u8()?, r.u16()?))
}

macro_rules! frame_codec {
    ($enum:ident) => {
        impl $enum {
            /// This message as a whole frame with `tag`.
            pub fn encode(&self, tag: u16) -> Vec<u8> {
                encode_frame(self.type_id(), tag, self.payload_len(), |out| {
                    self.put_body(out)
                })
            }

            /// Decodes a whole frame (`size[4]` included) no larger than `msize`: the tag
            /// and the message. Every byte must belong to the message.
            pub fn decode(frame: &[u8], msize: u32) -> Result<(u16, $enum), WireError> {
                let (ty, tag) = peek_header(frame, msize)?;
                let mut r = Reader::new(&frame[HEADER..]);
                let msg = $enum::get_body(ty, &mut r)?;
                r.finish()?;
                Ok((tag, msg))
            }

            /// The message's name, e.g. `Tmsg::Walk`.
            pub fn name(&self) -> &'static str {
                $enum::name_of(self.type_id()).unwrap_or("?")
            }
        }
    };
}
frame_codec!(Tmsg);
frame_codec!(Rmsg);

impl Rmsg {
    /// Bytes of counted data the reply carries.
    fn payload_len(&self) -> usize {
        match self {
            Rmsg::Read { data } | Rmsg::Readdir { data } => data.0.len(),
            _ => 0,
        }
    }
}

impl Tmsg {
    /// Bytes of counted data the request carries.
    fn payload_len(&self) -> usize {
        match self {
            Tmsg::Write { data, .. } => data.0.len(),
            _ => 0,
        }
    }

    /// The fid the request is about (the first, for those that name two), if any.
    pub fn fid(&self) -> Option<u32> {
        use Tmsg::*;
        match self {
            Statfs { fid } | Lopen { fid, .. } | Lcreate { fid, .. } | Symlink { fid, .. } => {
                Some(*fid)
            }
            Rename { fid, .. } | Readlink { fid } | Getattr { fid, .. } | Setattr { fid, .. } => {
                Some(*fid)
            }
            Xattrwalk { fid, .. } | Xattrcreate { fid, .. } | Readdir { fid, .. } => Some(*fid),
            Fsync { fid, .. } | Lock { fid, .. } | Getlock { fid, .. } | Link { fid, .. } => {
                Some(*fid)
            }
            Attach { fid, .. } | Walk { fid, .. } | Read { fid, .. } | Write { fid, .. } => {
                Some(*fid)
            }
            Clunk { fid } | Remove { fid } => Some(*fid),
            Mknod { dfid, .. } | Mkdir { dfid, .. } => Some(*dfid),
            Renameat { olddirfid, .. } => Some(*olddirfid),
            Unlinkat { dirfid, .. } => Some(*dirfid),
            Auth { afid, .. } => Some(*afid),
            Version { .. } | Flush { .. } => None,
        }
    }
}

/// `Tmsg::Walk` as the protocol writes it: `Twalk`.
pub fn wire_name(name: &str) -> String {
    match name.split_once("msg::") {
        Some((dir, v)) => format!("{dir}{}", v.to_lowercase()),
        None => name.to_string(),
    }
}

impl Tmsg {
    /// Decodes a request frame, accepting `Tfsync` without `datasync[4]` (the older layout
    /// diod's `protocol.md` gives) as `datasync = 0`.
    pub fn decode_request(frame: &[u8], msize: u32) -> Result<(u16, Tmsg), WireError> {
        if let Ok((50, tag)) = peek_header(frame, msize)
            && frame.len() == HEADER + 4
        {
            let fid = Reader::new(&frame[HEADER..]).u32()?;
            return Ok((tag, Tmsg::Fsync { fid, datasync: 0 }));
        }
        Tmsg::decode(frame, msize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qid(n: u8) -> Qid {
        Qid {
            qtype: QTDIR,
            version: u32::from(n) * 7,
            path: u64::from(n) << 40 | 5,
        }
    }

    fn name(s: &str) -> Vec<u8> {
        s.as_bytes().to_vec()
    }

    /// One of every request, with distinct non-zero field values.
    fn requests() -> Vec<Tmsg> {
        let lock = Flock {
            lock_type: LOCK_TYPE_WRLCK,
            flags: 1,
            start: 10,
            length: 20,
            proc_id: 33,
            client_id: name("host"),
        };
        let getlock = Getlock {
            lock_type: 1,
            start: 3,
            length: 4,
            proc_id: 5,
            client_id: name("c"),
        };
        let attr = SetAttr {
            valid: 0x1ff,
            mode: 0o644,
            uid: 1,
            gid: 2,
            size: 3,
            atime_sec: 4,
            atime_nsec: 5,
            mtime_sec: 6,
            mtime_nsec: 7,
        };
        vec![
            Tmsg::Statfs { fid: 1 },
            Tmsg::Lopen { fid: 2, flags: 0o2 },
            Tmsg::Lcreate {
                fid: 3,
                name: name("f"),
                flags: 0o102,
                mode: 0o600,
                gid: 9,
            },
            Tmsg::Symlink {
                fid: 4,
                name: name("l"),
                target: name("../x"),
                gid: 1,
            },
            Tmsg::Mknod {
                dfid: 5,
                name: name("p"),
                mode: 0o10644,
                major: 1,
                minor: 2,
                gid: 3,
            },
            Tmsg::Rename {
                fid: 6,
                dfid: 7,
                name: name("n"),
            },
            Tmsg::Readlink { fid: 8 },
            Tmsg::Getattr {
                fid: 9,
                mask: GETATTR_ALL,
            },
            Tmsg::Setattr { fid: 10, attr },
            Tmsg::Xattrwalk {
                fid: 11,
                newfid: 12,
                name: name("user.a"),
            },
            Tmsg::Xattrcreate {
                fid: 13,
                name: name("user.b"),
                size: 99,
                flags: 1,
            },
            Tmsg::Readdir {
                fid: 14,
                offset: 77,
                count: 8192,
            },
            Tmsg::Fsync {
                fid: 15,
                datasync: 1,
            },
            Tmsg::Lock { fid: 16, lock },
            Tmsg::Getlock {
                fid: 17,
                lock: getlock,
            },
            Tmsg::Link {
                dfid: 18,
                fid: 19,
                name: name("hard"),
            },
            Tmsg::Mkdir {
                dfid: 20,
                name: name("d"),
                mode: 0o755,
                gid: 4,
            },
            Tmsg::Renameat {
                olddirfid: 21,
                oldname: name("a"),
                newdirfid: 22,
                newname: name("b"),
            },
            Tmsg::Unlinkat {
                dirfid: 23,
                name: name("gone"),
                flags: AT_REMOVEDIR,
            },
            Tmsg::Version {
                msize: 8192,
                version: VERSION.into(),
            },
            Tmsg::Auth {
                afid: 24,
                uname: name("root"),
                aname: name("/x"),
                n_uname: 0,
            },
            Tmsg::Attach {
                fid: 25,
                afid: u32::MAX,
                uname: name("u"),
                aname: name(""),
                n_uname: 7,
            },
            Tmsg::Flush { oldtag: 12 },
            Tmsg::Walk {
                fid: 26,
                newfid: 27,
                names: vec![name("a"), name("bb"), name("")],
            },
            Tmsg::Read {
                fid: 28,
                offset: 1 << 33,
                count: 4096,
            },
            Tmsg::Write {
                fid: 29,
                offset: 5,
                data: Data(b"hello".to_vec()),
            },
            Tmsg::Clunk { fid: 30 },
            Tmsg::Remove { fid: 31 },
        ]
    }

    /// One of every reply.
    fn replies() -> Vec<Rmsg> {
        let statfs = Statfs {
            fs_type: 0x01021997,
            bsize: 4096,
            blocks: 1,
            bfree: 2,
            bavail: 3,
            files: 4,
            ffree: 5,
            fsid: 6,
            namelen: 255,
        };
        let attr = Attr {
            valid: GETATTR_BASIC,
            qid: qid(1),
            mode: 0o100644,
            uid: 1,
            gid: 2,
            nlink: 3,
            rdev: 4,
            size: 5,
            blksize: 6,
            blocks: 7,
            atime_sec: 8,
            atime_nsec: 9,
            mtime_sec: 10,
            mtime_nsec: 11,
            ctime_sec: 12,
            ctime_nsec: 13,
            btime_sec: 14,
            btime_nsec: 15,
            generation: 16,
            data_version: 17,
        };
        let entry = Dirent {
            qid: qid(2),
            offset: 1,
            dtype: 4,
            name: name("dir"),
        };
        let mut dirents = Vec::new();
        entry.put(&mut dirents);
        vec![
            Rmsg::Lerror { ecode: 2 },
            Rmsg::Statfs { statfs },
            Rmsg::Lopen {
                qid: qid(3),
                iounit: 8168,
            },
            Rmsg::Lcreate {
                qid: qid(4),
                iounit: 0,
            },
            Rmsg::Symlink { qid: qid(5) },
            Rmsg::Mknod { qid: qid(6) },
            Rmsg::Rename {},
            Rmsg::Readlink {
                target: name("/etc/passwd"),
            },
            Rmsg::Getattr { attr },
            Rmsg::Setattr {},
            Rmsg::Xattrwalk { size: 12 },
            Rmsg::Xattrcreate {},
            Rmsg::Readdir {
                data: Data(dirents),
            },
            Rmsg::Fsync {},
            Rmsg::Lock {
                status: LOCK_BLOCKED,
            },
            Rmsg::Getlock {
                lock: Getlock {
                    lock_type: 2,
                    start: 0,
                    length: 0,
                    proc_id: 1,
                    client_id: vec![],
                },
            },
            Rmsg::Link {},
            Rmsg::Mkdir { qid: qid(7) },
            Rmsg::Renameat {},
            Rmsg::Unlinkat {},
            Rmsg::Version {
                msize: 65536,
                version: VERSION.into(),
            },
            Rmsg::Auth { aqid: qid(8) },
            Rmsg::Attach { qid: qid(9) },
            Rmsg::Flush {},
            Rmsg::Walk {
                qids: vec![qid(1), qid(2)],
            },
            Rmsg::Read {
                data: Data(vec![1, 2, 3]),
            },
            Rmsg::Write { count: 3 },
            Rmsg::Clunk {},
            Rmsg::Remove {},
        ]
    }

    #[test]
    fn samples_cover_every_message_type() {
        let mut t: Vec<u8> = requests().iter().map(Tmsg::type_id).collect();
        let mut r: Vec<u8> = replies().iter().map(Rmsg::type_id).collect();
        t.sort_unstable();
        r.sort_unstable();
        assert_eq!(t, Tmsg::TYPES);
        assert_eq!(r, Rmsg::TYPES);
        assert_eq!(t.len(), 28);
        assert_eq!(r.len(), 29);
    }

    #[test]
    fn every_request_round_trips() {
        for (i, m) in requests().into_iter().enumerate() {
            let tag = i as u16 * 3 + 1;
            let frame = m.encode(tag);
            assert_eq!(Tmsg::decode(&frame, 1 << 16), Ok((tag, m.clone())), "{m:?}");
            assert_eq!(Tmsg::decode_request(&frame, 1 << 16), Ok((tag, m)));
        }
    }

    #[test]
    fn every_reply_round_trips() {
        for (i, m) in replies().into_iter().enumerate() {
            let frame = m.encode(i as u16);
            assert_eq!(
                Rmsg::decode(&frame, 1 << 16),
                Ok((i as u16, m.clone())),
                "{m:?}"
            );
        }
    }

    #[test]
    fn known_layouts_match_the_protocol() {
        // Tversion tag=0xFFFF msize=8192 "9P2000.L": 4+1+2+4+2+8 = 21 bytes.
        let f = Tmsg::Version {
            msize: 8192,
            version: VERSION.into(),
        }
        .encode(0xFFFF);
        let mut want = vec![21, 0, 0, 0, 100, 0xFF, 0xFF, 0, 0x20, 0, 0, 8, 0];
        want.extend_from_slice(b"9P2000.L");
        assert_eq!(f, want);
        // Rlerror tag=1 ENOENT.
        assert_eq!(
            Rmsg::Lerror { ecode: 2 }.encode(1),
            [11, 0, 0, 0, 7, 1, 0, 2, 0, 0, 0]
        );
        // Rgetattr: header 7 + valid 8 + qid 13 + 3*4 + 15*8.
        assert_eq!(replies()[8].encode(0).len(), 7 + 8 + 13 + 12 + 15 * 8);
        // The older Tfsync without datasync.
        let old = [11, 0, 0, 0, 50, 3, 0, 9, 0, 0, 0];
        assert_eq!(
            Tmsg::decode_request(&old, 8192),
            Ok((
                3,
                Tmsg::Fsync {
                    fid: 9,
                    datasync: 0
                }
            ))
        );
    }

    #[test]
    fn every_truncation_and_extension_is_an_error() {
        let frames: Vec<Vec<u8>> = requests().iter().map(|m| m.encode(1)).collect();
        for f in &frames {
            for cut in 0..f.len() {
                let mut t = f[..cut].to_vec();
                // Keep the size field consistent so the body check, not the size, fails.
                if t.len() >= 4 {
                    let n = t.len() as u32;
                    t[..4].copy_from_slice(&n.to_le_bytes());
                }
                assert!(Tmsg::decode(&t, 1 << 16).is_err(), "{cut} of {f:?}");
            }
            let mut long = f.clone();
            long.push(0);
            let n = long.len() as u32;
            long[..4].copy_from_slice(&n.to_le_bytes());
            assert!(matches!(
                Tmsg::decode(&long, 1 << 16),
                Err(WireError::TrailingBytes(1))
            ));
        }
        for m in replies() {
            let f = m.encode(1);
            for cut in 0..f.len() {
                assert!(Rmsg::decode(&f[..cut], 1 << 16).is_err());
            }
        }
    }

    #[test]
    fn size_type_and_direction_are_checked() {
        let f = Tmsg::Clunk { fid: 1 }.encode(1);
        assert_eq!(
            Tmsg::decode(&f, 8),
            Err(WireError::FrameTooLarge { size: 11, msize: 8 })
        );
        // A request is not a reply: Tclunk's number is not an R-message.
        assert_eq!(Rmsg::decode(&f, 8192), Err(WireError::UnknownType(120)));
        let mut bad = f.clone();
        bad[4] = 112; // 9P2000's Topen is not 9P2000.L
        assert_eq!(Tmsg::decode(&bad, 8192), Err(WireError::UnknownType(112)));
        let mut lying = f;
        lying[0] = 50;
        assert!(matches!(
            Tmsg::decode(&lying, 8192),
            Err(WireError::SizeMismatch {
                declared: 50,
                actual: 11
            })
        ));
        let walk = Tmsg::Walk {
            fid: 1,
            newfid: 2,
            names: vec![b"a".to_vec(); 17],
        }
        .encode(1);
        assert_eq!(
            Tmsg::decode(&walk, 8192),
            Err(WireError::TooManyElements(17))
        );
        let ver = [
            15, 0, 0, 0, 100, 0xFF, 0xFF, 0, 0x20, 0, 0, 2, 0, 0xC3, 0x28,
        ];
        assert_eq!(Tmsg::decode(&ver, 8192), Err(WireError::BadUtf8));
    }

    #[test]
    fn dirents_decode_whole_entries_only() {
        let a = Dirent {
            qid: qid(1),
            offset: 1,
            dtype: 8,
            name: name("a"),
        };
        let b = Dirent {
            qid: qid(2),
            offset: 2,
            dtype: 4,
            name: name("long name"),
        };
        let mut data = Vec::new();
        a.put(&mut data);
        b.put(&mut data);
        assert_eq!(data.len(), a.wire_len() + b.wire_len());
        assert_eq!(Dirent::decode_all(&data), Ok(vec![a, b]));
        assert_eq!(
            Dirent::decode_all(&data[..data.len() - 1]),
            Err(WireError::Truncated)
        );
    }
}
