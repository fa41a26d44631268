//! Sockets, readiness polling and name resolution, for java.net and sun.nio.ch (the JDK's
//! libnet and libnio `Net.c`, `EPoll.c`).
//!
//! Addresses cross this interface as `std::net::SocketAddr`; the conversion to and from the C
//! `sockaddr` structures happens here. Failures are reported as the OS `errno` (name
//! resolution failures as a message). Nothing here knows about Java objects.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use super::held::{self, Owner};
use super::{Errno, PortResult};

fn errno() -> Errno {
    Errno::last()
}

fn check(r: libc::c_int) -> PortResult<libc::c_int> {
    if r < 0 { Err(errno()) } else { Ok(r) }
}

/// A byte count from send/recv-like calls, or the errno.
fn check_len(n: libc::ssize_t) -> PortResult<usize> {
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

/// A zeroed `sockaddr_storage`.
fn zeroed_storage() -> libc::sockaddr_storage {
    // SAFETY: sockaddr_storage is plain old data; all zeroes is a valid value.
    unsafe { std::mem::zeroed() }
}

/// A new datagram socket (close-on-exec) of `domain`.
fn dgram_socket(domain: libc::c_int) -> PortResult<i32> {
    // SAFETY: socket has no memory-safety preconditions.
    check(unsafe { libc::socket(domain, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) })
}

fn close_quietly(fd: i32) {
    // SAFETY: fd was opened by the caller in this module and is closed once.
    unsafe { libc::close(fd) };
}

/// A `sockaddr_storage` holding `addr`, and its length. With `v6` an IPv4 address becomes an
/// IPv4-mapped IPv6 address (the wildcard 0.0.0.0 becomes `::`), as the JDK does for its
/// dual-stack sockets.
fn to_raw(addr: SocketAddr, v6: bool) -> (libc::sockaddr_storage, libc::socklen_t) {
    let mut ss = zeroed_storage();
    let (ip, port, scope) = match addr {
        SocketAddr::V4(a) if !v6 => {
            // SAFETY: sockaddr_storage is large enough and suitably aligned for sockaddr_in.
            let sin =
                unsafe { &mut *(&mut ss as *mut libc::sockaddr_storage as *mut libc::sockaddr_in) };
            sin.sin_family = libc::AF_INET as libc::sa_family_t;
            sin.sin_port = a.port().to_be();
            sin.sin_addr.s_addr = u32::from_ne_bytes(a.ip().octets());
            return (
                ss,
                std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
            );
        }
        SocketAddr::V4(a) => {
            let ip = if a.ip().is_unspecified() {
                Ipv6Addr::UNSPECIFIED
            } else {
                a.ip().to_ipv6_mapped()
            };
            (ip, a.port(), 0)
        }
        SocketAddr::V6(a) => (*a.ip(), a.port(), a.scope_id()),
    };
    // SAFETY: sockaddr_storage is large enough and suitably aligned for sockaddr_in6.
    let sin6 = unsafe { &mut *(&mut ss as *mut libc::sockaddr_storage as *mut libc::sockaddr_in6) };
    sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
    sin6.sin6_port = port.to_be();
    sin6.sin6_addr.s6_addr = ip.octets();
    sin6.sin6_scope_id = scope;
    (
        ss,
        std::mem::size_of::<libc::sockaddr_in6>() as libc::socklen_t,
    )
}

/// The address in `ss`; IPv4-mapped IPv6 addresses come back as IPv4 (like the JDK's
/// `NET_SockaddrToInetAddress`).
fn from_raw(ss: &libc::sockaddr_storage) -> PortResult<SocketAddr> {
    match ss.ss_family as i32 {
        libc::AF_INET => {
            // SAFETY: the family says ss holds a sockaddr_in.
            let sin =
                unsafe { &*(ss as *const libc::sockaddr_storage as *const libc::sockaddr_in) };
            let ip = Ipv4Addr::from(sin.sin_addr.s_addr.to_ne_bytes());
            Ok(SocketAddr::V4(SocketAddrV4::new(
                ip,
                u16::from_be(sin.sin_port),
            )))
        }
        libc::AF_INET6 => {
            // SAFETY: the family says ss holds a sockaddr_in6.
            let sin6 =
                unsafe { &*(ss as *const libc::sockaddr_storage as *const libc::sockaddr_in6) };
            let ip = Ipv6Addr::from(sin6.sin6_addr.s6_addr);
            let port = u16::from_be(sin6.sin6_port);
            match ip.to_ipv4_mapped() {
                Some(v4) => Ok(SocketAddr::V4(SocketAddrV4::new(v4, port))),
                None => Ok(SocketAddr::V6(SocketAddrV6::new(
                    ip,
                    port,
                    0,
                    sin6.sin6_scope_id,
                ))),
            }
        }
        _ => Err(Errno::EAFNOSUPPORT),
    }
}

/// Whether IPv6 sockets can be created and the host has IPv6 interfaces (libnet's
/// `IPv6_supported`).
pub fn ipv6_available() -> bool {
    // SAFETY: socket has no memory-safety preconditions.
    let fd = unsafe { libc::socket(libc::AF_INET6, libc::SOCK_STREAM, 0) };
    if fd < 0 {
        return false;
    }
    close_quietly(fd);
    std::fs::read_to_string("/proc/net/if_inet6").is_ok_and(|s| !s.trim().is_empty())
}

/// Whether SO_REUSEPORT can be set.
pub fn reuse_port_available() -> bool {
    // SAFETY: socket has no memory-safety preconditions.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) };
    if fd < 0 {
        return false;
    }
    let ok = set_int_option(fd, libc::SOL_SOCKET, libc::SO_REUSEPORT, 1).is_ok();
    close_quietly(fd);
    ok
}

/// A new socket (close-on-exec), IPv6 dual-stack when `v6`; with `reuse`, SO_REUSEADDR set.
pub fn socket(owner: Owner, v6: bool, stream: bool, reuse: bool) -> PortResult<i32> {
    let domain = if v6 { libc::AF_INET6 } else { libc::AF_INET };
    let ty = if stream {
        libc::SOCK_STREAM
    } else {
        libc::SOCK_DGRAM
    };
    // SAFETY: socket has no memory-safety preconditions.
    let fd = check(unsafe { libc::socket(domain, ty | libc::SOCK_CLOEXEC, 0) })?;
    let setup = || -> PortResult<()> {
        if v6 {
            set_int_option(fd, libc::IPPROTO_IPV6, libc::IPV6_V6ONLY, 0)?;
        }
        if reuse {
            set_int_option(fd, libc::SOL_SOCKET, libc::SO_REUSEADDR, 1)?;
        }
        if !stream {
            // As libnio: multicast datagrams only for the groups this socket joins (the option
            // is set at the IPv6 level on IPv6 sockets, where an old kernel may refuse it), and
            // one hop for IPv6 multicast.
            let level = if v6 {
                libc::IPPROTO_IPV6
            } else {
                libc::IPPROTO_IP
            };
            match set_int_option(fd, level, libc::IP_MULTICAST_ALL, 0) {
                Ok(()) | Err(Errno::ENOPROTOOPT) => {}
                Err(e) => return Err(e),
            }
            if v6 {
                set_int_option(fd, libc::IPPROTO_IPV6, libc::IPV6_MULTICAST_HOPS, 1)?;
            }
        }
        Ok(())
    };
    if let Err(e) = setup() {
        close_quietly(fd);
        return Err(e);
    }
    held::took_fd(owner, fd)
}

pub fn bind(fd: i32, v6: bool, addr: SocketAddr) -> PortResult<()> {
    let (ss, len) = to_raw(addr, v6);
    // SAFETY: ss is a valid sockaddr of len bytes.
    check(unsafe { libc::bind(fd, &ss as *const _ as *const libc::sockaddr, len) }).map(|_| ())
}

pub fn listen(fd: i32, backlog: i32) -> PortResult<()> {
    // SAFETY: listen has no memory-safety preconditions.
    check(unsafe { libc::listen(fd, backlog) }).map(|_| ())
}

/// Starts or makes a connection: `Ok(true)` connected, `Ok(false)` in progress (EINPROGRESS on
/// a non-blocking socket). EINTR is returned as an error for the caller to map.
pub fn connect(fd: i32, v6: bool, addr: SocketAddr) -> PortResult<bool> {
    let (ss, len) = to_raw(addr, v6);
    // SAFETY: ss is a valid sockaddr of len bytes.
    match check(unsafe { libc::connect(fd, &ss as *const _ as *const libc::sockaddr, len) }) {
        Ok(_) => Ok(true),
        Err(Errno::EINPROGRESS) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Accepts a connection: the new (close-on-exec) socket and the peer's address.
pub fn accept(owner: Owner, fd: i32) -> PortResult<(i32, SocketAddr)> {
    let mut ss = zeroed_storage();
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    loop {
        // SAFETY: ss and len are valid out-parameters of the sizes given.
        let r = unsafe {
            libc::accept4(
                fd,
                &mut ss as *mut _ as *mut libc::sockaddr,
                &mut len,
                libc::SOCK_CLOEXEC,
            )
        };
        if r >= 0 {
            return match from_raw(&ss) {
                Ok(a) => held::took_fd(owner, r).map(|r| (r, a)),
                Err(e) => {
                    close_quietly(r);
                    Err(e)
                }
            };
        }
        match errno() {
            // A connection aborted before accept: wait for the next one (as libnio does).
            Errno::ECONNABORTED => continue,
            e => return Err(e),
        }
    }
}

pub fn shutdown(fd: i32, how: i32) -> PortResult<()> {
    let how = match how {
        0 => libc::SHUT_RD,
        1 => libc::SHUT_WR,
        _ => libc::SHUT_RDWR,
    };
    // SAFETY: shutdown has no memory-safety preconditions.
    check(unsafe { libc::shutdown(fd, how) }).map(|_| ())
}

fn name_of(fd: i32, peer: bool) -> PortResult<SocketAddr> {
    let mut ss = zeroed_storage();
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    let p = &mut ss as *mut _ as *mut libc::sockaddr;
    // SAFETY: ss and len are valid out-parameters of the sizes given.
    check(unsafe {
        if peer {
            libc::getpeername(fd, p, &mut len)
        } else {
            libc::getsockname(fd, p, &mut len)
        }
    })?;
    from_raw(&ss)
}

pub fn local_address(fd: i32) -> PortResult<SocketAddr> {
    name_of(fd, false)
}

pub fn remote_address(fd: i32) -> PortResult<SocketAddr> {
    name_of(fd, true)
}

/// Whether an option's value is one byte (an `u_char`) rather than an int, as libnio passes
/// IPv4 multicast TTL and loopback.
fn byte_option(level: i32, opt: i32) -> bool {
    level == libc::IPPROTO_IP && (opt == libc::IP_MULTICAST_TTL || opt == libc::IP_MULTICAST_LOOP)
}

/// getsockopt into `value`, a plain-data `T` of the option's C type.
fn get_option<T>(fd: i32, level: i32, opt: i32, value: &mut T) -> PortResult<()> {
    let mut len = std::mem::size_of::<T>() as libc::socklen_t;
    // SAFETY: value and len are valid out-parameters of the sizes given.
    check(unsafe {
        libc::getsockopt(
            fd,
            level,
            opt,
            value as *mut T as *mut libc::c_void,
            &mut len,
        )
    })
    .map(|_| ())
}

/// setsockopt with `value`, a plain-data `T` of the option's C type.
fn set_option<T>(fd: i32, level: i32, opt: i32, value: &T) -> PortResult<()> {
    let len = std::mem::size_of::<T>() as libc::socklen_t;
    // SAFETY: value is a valid T of len bytes.
    check(unsafe {
        libc::setsockopt(
            fd,
            level,
            opt,
            value as *const T as *const libc::c_void,
            len,
        )
    })
    .map(|_| ())
}

/// An integer socket option; SO_LINGER is its linger time, or -1 when off.
pub fn get_int_option(fd: i32, level: i32, opt: i32) -> PortResult<i32> {
    if byte_option(level, opt) {
        let mut b: u8 = 0;
        get_option(fd, level, opt, &mut b)?;
        return Ok(b as i32);
    }
    if level == libc::SOL_SOCKET && opt == libc::SO_LINGER {
        let mut l = libc::linger {
            l_onoff: 0,
            l_linger: 0,
        };
        get_option(fd, level, opt, &mut l)?;
        return Ok(if l.l_onoff != 0 { l.l_linger } else { -1 });
    }
    let mut v: libc::c_int = 0;
    get_option(fd, level, opt, &mut v)?;
    Ok(v)
}

/// Sets an integer socket option; SO_LINGER takes the linger time, negative for off.
pub fn set_int_option(fd: i32, level: i32, opt: i32, value: i32) -> PortResult<()> {
    if byte_option(level, opt) {
        return set_option(fd, level, opt, &(value as u8));
    }
    if level == libc::SOL_SOCKET && opt == libc::SO_LINGER {
        let l = libc::linger {
            l_onoff: (value >= 0) as i32,
            l_linger: value.max(0),
        };
        return set_option(fd, level, opt, &l);
    }
    set_option(fd, level, opt, &(value as libc::c_int))
}

/// poll(2) on one descriptor: the returned events (0 on timeout). `timeout_ms` -1 waits
/// forever. EINTR is returned as an error.
pub fn poll(fd: i32, events: i16, timeout_ms: i64) -> PortResult<i16> {
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    let to = timeout_ms.clamp(-1, i32::MAX as i64) as libc::c_int;
    // SAFETY: p is one valid pollfd.
    let n = check(unsafe { libc::poll(&mut p, 1, to) })?;
    Ok(if n == 0 { 0 } else { p.revents })
}

/// Waits up to `timeout_ms` for a pending connect to finish: `Ok(true)` connected,
/// `Ok(false)` still pending, `Err` the connection's error.
pub fn poll_connect(fd: i32, timeout_ms: i64) -> PortResult<bool> {
    let r = poll(fd, libc::POLLOUT, timeout_ms)?;
    if r == 0 {
        return Ok(false);
    }
    match get_int_option(fd, libc::SOL_SOCKET, libc::SO_ERROR)? {
        0 => Ok(true),
        e => Err(Errno(e)),
    }
}

/// Bytes ready to read.
pub fn available(fd: i32) -> PortResult<i32> {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int into n.
    check(unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) })?;
    Ok(n)
}

/// Sends one byte of urgent data.
pub fn send_oob(fd: i32, b: u8) -> PortResult<usize> {
    // SAFETY: b is one readable byte.
    let n = unsafe { libc::send(fd, &b as *const u8 as *const libc::c_void, 1, libc::MSG_OOB) };
    check_len(n)
}

/// recv(2) into native memory at `addr` (a direct buffer the caller owns).
pub fn recv(fd: i32, addr: usize, len: usize) -> PortResult<usize> {
    // SAFETY: the caller (the JDK's direct-buffer code) guarantees addr..addr+len is writable.
    let n = unsafe { libc::recv(fd, addr as *mut libc::c_void, len, 0) };
    check_len(n)
}

/// send(2) from native memory at `addr` (a direct buffer the caller owns).
pub fn send(fd: i32, addr: usize, len: usize) -> PortResult<usize> {
    // SAFETY: the caller (the JDK's direct-buffer code) guarantees addr..addr+len is readable.
    let n = unsafe { libc::send(fd, addr as *const libc::c_void, len, 0) };
    check_len(n)
}

// ---- datagrams (sun.nio.ch.DatagramChannelImpl, NativeSocketAddress) ----

/// The layout of the C socket addresses, as sun.nio.ch.NativeSocketAddress reads and writes
/// them in native memory.
#[derive(Clone, Copy, Debug)]
pub struct SockaddrLayout {
    pub af_inet: i32,
    pub af_inet6: i32,
    pub sizeof_sockaddr4: usize,
    pub sizeof_sockaddr6: usize,
    pub sizeof_family: usize,
    pub offset_family: usize,
    pub offset_sin4_port: usize,
    pub offset_sin4_addr: usize,
    pub offset_sin6_port: usize,
    pub offset_sin6_addr: usize,
    pub offset_sin6_scope_id: usize,
    pub offset_sin6_flowinfo: usize,
}

pub fn sockaddr_layout() -> SockaddrLayout {
    use std::mem::{offset_of, size_of};
    SockaddrLayout {
        af_inet: libc::AF_INET,
        af_inet6: libc::AF_INET6,
        sizeof_sockaddr4: size_of::<libc::sockaddr_in>(),
        sizeof_sockaddr6: size_of::<libc::sockaddr_in6>(),
        sizeof_family: size_of::<libc::sa_family_t>(),
        offset_family: offset_of!(libc::sockaddr, sa_family),
        offset_sin4_port: offset_of!(libc::sockaddr_in, sin_port),
        offset_sin4_addr: offset_of!(libc::sockaddr_in, sin_addr),
        offset_sin6_port: offset_of!(libc::sockaddr_in6, sin6_port),
        offset_sin6_addr: offset_of!(libc::sockaddr_in6, sin6_addr),
        offset_sin6_scope_id: offset_of!(libc::sockaddr_in6, sin6_scope_id),
        offset_sin6_flowinfo: offset_of!(libc::sockaddr_in6, sin6_flowinfo),
    }
}

/// The size of the JDK's `SOCKETADDRESS` union (sockaddr, sockaddr_in, sockaddr_in6): what a
/// NativeSocketAddress allocates.
fn socketaddress_size() -> usize {
    std::mem::size_of::<libc::sockaddr_in6>().max(std::mem::size_of::<libc::sockaddr_in>())
}

/// The largest datagram libnio sends or receives in one call (`MAX_PACKET_LEN`).
pub const MAX_PACKET_LEN: usize = 65536;

/// recvfrom(2) into native memory at `addr`, the sender's C address written at `sender` (a
/// NativeSocketAddress). EINTR, EAGAIN and ECONNREFUSED are returned for the caller to map.
pub fn recv_from(fd: i32, addr: usize, len: usize, sender: usize) -> PortResult<usize> {
    let mut sa_len = socketaddress_size() as libc::socklen_t;
    // SAFETY: the caller (DatagramChannelImpl) guarantees addr..addr+len is a writable direct
    // buffer and `sender` a NativeSocketAddress of SOCKETADDRESS size.
    let n = unsafe {
        libc::recvfrom(
            fd,
            addr as *mut libc::c_void,
            len.min(MAX_PACKET_LEN),
            0,
            sender as *mut libc::sockaddr,
            &mut sa_len,
        )
    };
    check_len(n)
}

/// sendto(2) from native memory at `addr` to the C address of `target_len` bytes at `target`.
pub fn send_to(
    fd: i32,
    addr: usize,
    len: usize,
    target: usize,
    target_len: usize,
) -> PortResult<usize> {
    if target_len > socketaddress_size() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller (DatagramChannelImpl) guarantees addr..addr+len is a readable direct
    // buffer and `target` a NativeSocketAddress holding target_len (checked above) bytes.
    let n = unsafe {
        libc::sendto(
            fd,
            addr as *const libc::c_void,
            len.min(MAX_PACKET_LEN),
            0,
            target as *const libc::sockaddr,
            target_len as libc::socklen_t,
        )
    };
    check_len(n)
}

/// Dissolves a datagram socket's association (connect to an AF_UNSPEC address).
pub fn disconnect(fd: i32, v6: bool) -> PortResult<()> {
    let mut ss = zeroed_storage();
    ss.ss_family = libc::AF_UNSPEC as libc::sa_family_t;
    let len = if v6 {
        std::mem::size_of::<libc::sockaddr_in6>()
    } else {
        std::mem::size_of::<libc::sockaddr_in>()
    };
    // SAFETY: ss is a valid sockaddr of at least len bytes.
    check(unsafe {
        libc::connect(
            fd,
            &ss as *const _ as *const libc::sockaddr,
            len as libc::socklen_t,
        )
    })
    .map(|_| ())
}

// ---- multicast ----

fn in_addr(host_order: i32) -> libc::in_addr {
    libc::in_addr {
        s_addr: (host_order as u32).to_be(),
    }
}

/// Joins or leaves IPv4 multicast `group` on interface `interf` (addresses in host order),
/// only for datagrams from `source` when it is not 0.
pub fn join_or_drop4(fd: i32, join: bool, group: i32, interf: i32, source: i32) -> PortResult<()> {
    if source == 0 {
        let mreq = libc::ip_mreq {
            imr_multiaddr: in_addr(group),
            imr_interface: in_addr(interf),
        };
        let opt = if join {
            libc::IP_ADD_MEMBERSHIP
        } else {
            libc::IP_DROP_MEMBERSHIP
        };
        set_option(fd, libc::IPPROTO_IP, opt, &mreq)
    } else {
        let mreq = libc::ip_mreq_source {
            imr_multiaddr: in_addr(group),
            imr_interface: in_addr(interf),
            imr_sourceaddr: in_addr(source),
        };
        let opt = if join {
            libc::IP_ADD_SOURCE_MEMBERSHIP
        } else {
            libc::IP_DROP_SOURCE_MEMBERSHIP
        };
        set_option(fd, libc::IPPROTO_IP, opt, &mreq)
    }
}

/// Blocks or unblocks IPv4 `source` for a joined `group`.
pub fn block_or_unblock4(
    fd: i32,
    block: bool,
    group: i32,
    interf: i32,
    source: i32,
) -> PortResult<()> {
    let mreq = libc::ip_mreq_source {
        imr_multiaddr: in_addr(group),
        imr_interface: in_addr(interf),
        imr_sourceaddr: in_addr(source),
    };
    let opt = if block {
        libc::IP_BLOCK_SOURCE
    } else {
        libc::IP_UNBLOCK_SOURCE
    };
    set_option(fd, libc::IPPROTO_IP, opt, &mreq)
}

fn group_source_req(group: [u8; 16], index: i32, source: [u8; 16]) -> libc::group_source_req {
    let raw = |a: [u8; 16]| {
        to_raw(
            SocketAddr::V6(SocketAddrV6::new(Ipv6Addr::from(a), 0, 0, 0)),
            true,
        )
        .0
    };
    libc::group_source_req {
        gsr_interface: index as u32,
        gsr_group: raw(group),
        gsr_source: raw(source),
    }
}

/// Joins or leaves IPv6 multicast `group` on interface `index`, only for datagrams from
/// `source` when given.
pub fn join_or_drop6(
    fd: i32,
    join: bool,
    group: [u8; 16],
    index: i32,
    source: Option<[u8; 16]>,
) -> PortResult<()> {
    match source {
        None => {
            let mreq = libc::ipv6_mreq {
                ipv6mr_multiaddr: libc::in6_addr { s6_addr: group },
                ipv6mr_interface: index as u32,
            };
            let opt = if join {
                libc::IPV6_ADD_MEMBERSHIP
            } else {
                libc::IPV6_DROP_MEMBERSHIP
            };
            set_option(fd, libc::IPPROTO_IPV6, opt, &mreq)
        }
        Some(src) => {
            let req = group_source_req(group, index, src);
            let opt = if join {
                libc::MCAST_JOIN_SOURCE_GROUP
            } else {
                libc::MCAST_LEAVE_SOURCE_GROUP
            };
            set_option(fd, libc::IPPROTO_IPV6, opt, &req)
        }
    }
}

/// Blocks or unblocks IPv6 `source` for a joined `group`.
pub fn block_or_unblock6(
    fd: i32,
    block: bool,
    group: [u8; 16],
    index: i32,
    source: [u8; 16],
) -> PortResult<()> {
    let req = group_source_req(group, index, source);
    let opt = if block {
        libc::MCAST_BLOCK_SOURCE
    } else {
        libc::MCAST_UNBLOCK_SOURCE
    };
    set_option(fd, libc::IPPROTO_IPV6, opt, &req)
}

/// IP_MULTICAST_IF: sets the outgoing interface by its IPv4 address (host order).
pub fn set_interface4(fd: i32, interf: i32) -> PortResult<()> {
    set_option(
        fd,
        libc::IPPROTO_IP,
        libc::IP_MULTICAST_IF,
        &in_addr(interf),
    )
}

/// IP_MULTICAST_IF: the outgoing interface's IPv4 address (host order).
pub fn get_interface4(fd: i32) -> PortResult<i32> {
    let mut a = libc::in_addr { s_addr: 0 };
    get_option(fd, libc::IPPROTO_IP, libc::IP_MULTICAST_IF, &mut a)?;
    Ok(u32::from_be(a.s_addr) as i32)
}

/// IPV6_MULTICAST_IF: sets the outgoing interface by index.
pub fn set_interface6(fd: i32, index: i32) -> PortResult<()> {
    set_int_option(fd, libc::IPPROTO_IPV6, libc::IPV6_MULTICAST_IF, index)
}

/// IPV6_MULTICAST_IF: the outgoing interface's index.
pub fn get_interface6(fd: i32) -> PortResult<i32> {
    get_int_option(fd, libc::IPPROTO_IPV6, libc::IPV6_MULTICAST_IF)
}

// ---- epoll (sun.nio.ch.EPoll) ----

/// (size of `struct epoll_event`, offset of `events`, offset of `data`).
pub fn epoll_event_layout() -> (usize, usize, usize) {
    let e = libc::epoll_event { events: 0, u64: 0 };
    let base = &e as *const libc::epoll_event as usize;
    let data = std::ptr::addr_of!(e.u64) as usize - base;
    (std::mem::size_of::<libc::epoll_event>(), 0, data)
}

pub fn epoll_create(owner: Owner) -> PortResult<i32> {
    // SAFETY: epoll_create1 has no memory-safety preconditions.
    check(unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) })
        .and_then(|fd| held::took_fd(owner, fd))
}

/// epoll_ctl with the descriptor itself as the event's data; returns 0 or the errno.
pub fn epoll_ctl(epfd: i32, op: i32, fd: i32, events: u32) -> PortResult<()> {
    let mut ev = libc::epoll_event {
        events,
        u64: fd as u32 as u64,
    };
    // SAFETY: ev is a valid epoll_event.
    if unsafe { libc::epoll_ctl(epfd, op, fd, &mut ev) } < 0 {
        Err(errno())
    } else {
        Ok(())
    }
}

/// epoll_wait into `count` events at native address `addr` (the selector's poll array).
/// poll(2) on `count` `struct pollfd` at native address `addr` (PollSelectorImpl's poll
/// array): the number of descriptors with events. EINTR is returned as an error.
pub fn poll_array(addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32> {
    // SAFETY: the caller (PollSelectorImpl's allocated poll array) guarantees addr holds count
    // pollfd structures.
    check(unsafe {
        libc::poll(
            addr as *mut libc::pollfd,
            count.max(0) as libc::nfds_t,
            timeout_ms,
        )
    })
}

pub fn epoll_wait(epfd: i32, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32> {
    // SAFETY: the caller (EPoll's allocated poll array) guarantees addr holds count events.
    check(unsafe {
        libc::epoll_wait(
            epfd,
            addr as *mut libc::epoll_event,
            count.max(0),
            timeout_ms,
        )
    })
}

// ---- names ----

/// The host's name (gethostname).
pub fn host_name() -> PortResult<String> {
    let mut buf = [0u8; 256];
    // SAFETY: buf is writable for its length.
    check(unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len() - 1) })?;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Ok(String::from_utf8_lossy(&buf[..end]).into_owned())
}

/// The addresses of `host` from the host resolver (getaddrinfo), IPv4 ones first, without
/// duplicates; only IPv4 unless `v6`. The error is the resolver's message.
pub fn lookup_host(host: &str, v6: bool) -> Result<Vec<IpAddr>, String> {
    use std::net::ToSocketAddrs;
    let found = (host, 0u16).to_socket_addrs().map_err(|e| {
        let m = e.to_string();
        m.strip_prefix("failed to lookup address information: ")
            .unwrap_or(&m)
            .to_string()
    })?;
    let mut v4s: Vec<IpAddr> = Vec::new();
    let mut v6s: Vec<IpAddr> = Vec::new();
    for a in found {
        let ip = a.ip();
        let list = if ip.is_ipv4() { &mut v4s } else { &mut v6s };
        if !list.contains(&ip) {
            list.push(ip);
        }
    }
    if v6 {
        v4s.extend(v6s);
    }
    if v4s.is_empty() {
        return Err("Name or service not known".into());
    }
    Ok(v4s)
}

/// The name of address `ip` (getnameinfo with NI_NAMEREQD), or None.
pub fn host_by_addr(ip: IpAddr) -> Option<String> {
    let (ss, len) = to_raw(SocketAddr::new(ip, 0), ip.is_ipv6());
    let mut host = [0u8; 1025];
    // SAFETY: ss is a valid sockaddr of len bytes, host writable for its length.
    let r = unsafe {
        libc::getnameinfo(
            &ss as *const _ as *const libc::sockaddr,
            len,
            host.as_mut_ptr() as *mut libc::c_char,
            host.len() as libc::socklen_t,
            std::ptr::null_mut(),
            0,
            libc::NI_NAMEREQD,
        )
    };
    if r != 0 {
        return None;
    }
    let end = host.iter().position(|&b| b == 0).unwrap_or(host.len());
    Some(String::from_utf8_lossy(&host[..end]).into_owned())
}

/// A new blocking eventfd (close-on-exec) with value zero.
pub fn eventfd(owner: Owner) -> PortResult<i32> {
    // SAFETY: eventfd has no memory-safety preconditions.
    check(unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) }).and_then(|fd| held::took_fd(owner, fd))
}

// ---- network interfaces (libnet's NetworkInterface.c) ----

/// One address of a network interface.
#[derive(Clone, Debug, PartialEq)]
pub struct IfAddress {
    pub ip: IpAddr,
    /// For IPv6, the index of the interface (0 for IPv4).
    pub scope_id: u32,
    /// For IPv4 on a broadcast interface, its broadcast address.
    pub broadcast: Option<Ipv4Addr>,
    /// The network prefix length.
    pub prefix: i16,
}

/// A network interface with its addresses and its alias (`eth0:1`) sub-interfaces.
#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    pub name: String,
    /// The interface index, -1 when unknown.
    pub index: i32,
    pub is_virtual: bool,
    pub addrs: Vec<IfAddress>,
    pub childs: Vec<Interface>,
}

/// An `ifreq` naming `name` (truncated to IFNAMSIZ-1 bytes, and at a NUL, like strncpy).
fn ifreq_named(name: &str) -> libc::ifreq {
    // SAFETY: ifreq is plain old data; all zeroes is a valid value.
    let mut r: libc::ifreq = unsafe { std::mem::zeroed() };
    for (d, &b) in r.ifr_name.iter_mut().zip(
        name.as_bytes()
            .iter()
            .take(libc::IFNAMSIZ - 1)
            .take_while(|&&b| b != 0),
    ) {
        *d = b as libc::c_char;
    }
    r
}

fn ifreq_name(r: &libc::ifreq) -> String {
    let bytes: Vec<u8> = r
        .ifr_name
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The IPv4 address in a `sockaddr` that the kernel filled in as a sockaddr_in.
fn sockaddr_v4(sa: &libc::sockaddr) -> Ipv4Addr {
    // The sockaddr_in layout: family (2), port (2), address (4), in sa_data[2..6].
    Ipv4Addr::new(
        sa.sa_data[2] as u8,
        sa.sa_data[3] as u8,
        sa.sa_data[4] as u8,
        sa.sa_data[5] as u8,
    )
}

/// A datagram socket for interface ioctls: IPv4, or IPv6 on a host without IPv4.
fn ioctl_socket() -> PortResult<i32> {
    match dgram_socket(libc::AF_INET) {
        Err(Errno::EPROTONOSUPPORT | Errno::EAFNOSUPPORT) => dgram_socket(libc::AF_INET6),
        r => r,
    }
}

/// Runs the interface ioctl `req` for `name` on a fresh socket; returns the filled `ifreq`.
fn interface_ioctl(name: &str, req: libc::c_ulong) -> PortResult<libc::ifreq> {
    let fd = ioctl_socket()?;
    let r = ioctl_on(fd, name, req);
    close_quietly(fd);
    r
}

fn ioctl_on(fd: i32, name: &str, req: libc::c_ulong) -> PortResult<libc::ifreq> {
    let mut r = ifreq_named(name);
    // SAFETY: req is one of the SIOCGIF* requests, which read the name from and write their
    // result into the ifreq passed.
    check(unsafe { libc::ioctl(fd, req, &mut r as *mut libc::ifreq) })?;
    Ok(r)
}

/// The interface flags (IFF_*) of `name` (SIOCGIFFLAGS).
pub fn interface_flags(name: &str) -> PortResult<i32> {
    let r = interface_ioctl(name, libc::SIOCGIFFLAGS)?;
    // SAFETY: SIOCGIFFLAGS filled in the flags member.
    Ok(unsafe { r.ifr_ifru.ifru_flags } as i32 & 0xffff)
}

/// The MTU of `name` (SIOCGIFMTU).
pub fn interface_mtu(name: &str) -> PortResult<i32> {
    let r = interface_ioctl(name, libc::SIOCGIFMTU)?;
    // SAFETY: SIOCGIFMTU filled in the mtu member.
    Ok(unsafe { r.ifr_ifru.ifru_mtu })
}

/// The 6-byte hardware address of `name` (SIOCGIFHWADDR); None when it is all zeroes (as for
/// the loopback interface), which libnet reports as no address.
pub fn interface_hardware_address(name: &str) -> PortResult<Option<[u8; 6]>> {
    let r = interface_ioctl(name, libc::SIOCGIFHWADDR)?;
    // SAFETY: SIOCGIFHWADDR filled in the hwaddr member.
    let data = unsafe { r.ifr_ifru.ifru_hwaddr }.sa_data;
    let mut mac = [0u8; 6];
    for (m, &d) in mac.iter_mut().zip(data.iter()) {
        *m = d as u8;
    }
    Ok(if mac.iter().all(|&b| b == 0) {
        None
    } else {
        Some(mac)
    })
}

/// The index of interface `name`, -1 when there is none.
fn interface_index(name: &str) -> i32 {
    let Ok(c) = std::ffi::CString::new(name) else {
        return -1;
    };
    // SAFETY: c is a valid NUL-terminated string.
    let i = unsafe { libc::if_nametoindex(c.as_ptr()) };
    if i == 0 { -1 } else { i as i32 }
}

/// Adds `addr` of interface `name` to `list` (libnet's `addif`): a new interface is created on
/// first sight, and an alias `parent:unit` whose parent exists becomes a virtual child of it
/// (its address is listed on both). Lists are kept in discovery order.
fn add_interface_address(list: &mut Vec<Interface>, name: &str, addr: IfAddress) {
    let mut top = name.to_string();
    let mut alias = None;
    let mut is_virtual = false;
    if let Some(colon) = name.find(':') {
        let parent = &name[..colon];
        if interface_flags(parent).is_ok() {
            top = parent.to_string();
            alias = Some(name.to_string());
        } else {
            is_virtual = true;
        }
    }
    let pos = match list.iter().position(|i| i.name == top) {
        Some(p) => p,
        None => {
            let index = interface_index(&top);
            list.push(Interface {
                name: top,
                index,
                is_virtual,
                addrs: Vec::new(),
                childs: Vec::new(),
            });
            list.len() - 1
        }
    };
    let parent = &mut list[pos];
    parent.addrs.push(addr.clone());
    if let Some(vname) = alias {
        let cpos = match parent.childs.iter().position(|c| c.name == vname) {
            Some(p) => p,
            None => {
                let index = interface_index(&vname);
                parent.childs.push(Interface {
                    name: vname,
                    index,
                    is_virtual: true,
                    addrs: Vec::new(),
                    childs: Vec::new(),
                });
                parent.childs.len() - 1
            }
        };
        parent.childs[cpos].addrs.push(addr);
    }
}

/// The interfaces with IPv4 addresses (SIOCGIFCONF), with broadcast address and prefix.
fn enum_ipv4(fd: i32, list: &mut Vec<Interface>) -> PortResult<()> {
    // SAFETY: ifconf is plain old data; a null buffer asks only for the size needed.
    let mut ifc: libc::ifconf = unsafe { std::mem::zeroed() };
    // SAFETY: with a null buffer SIOCGIFCONF only writes ifc_len.
    check(unsafe { libc::ioctl(fd, libc::SIOCGIFCONF, &mut ifc as *mut libc::ifconf) })?;
    let size = std::mem::size_of::<libc::ifreq>();
    let count = (ifc.ifc_len.max(0) as usize).div_ceil(size) + 1;
    // SAFETY: ifreq is plain old data; all zeroes is a valid value.
    let mut reqs: Vec<libc::ifreq> = (0..count).map(|_| unsafe { std::mem::zeroed() }).collect();
    ifc.ifc_len = (count * size) as libc::c_int;
    ifc.ifc_ifcu.ifcu_req = reqs.as_mut_ptr();
    // SAFETY: the buffer holds ifc_len bytes of ifreq entries, which the kernel fills.
    check(unsafe { libc::ioctl(fd, libc::SIOCGIFCONF, &mut ifc as *mut libc::ifconf) })?;
    let filled = (ifc.ifc_len.max(0) as usize / size).min(count);
    for req in &reqs[..filled] {
        // SAFETY: SIOCGIFCONF filled in the addr member of each entry.
        let sa = unsafe { req.ifr_ifru.ifru_addr };
        if sa.sa_family as i32 != libc::AF_INET {
            continue;
        }
        let name = ifreq_name(req);
        let ip = sockaddr_v4(&sa);
        let mut broadcast = None;
        if let Ok(r) = ioctl_on(fd, &name, libc::SIOCGIFFLAGS) {
            // SAFETY: SIOCGIFFLAGS filled in the flags member.
            if unsafe { r.ifr_ifru.ifru_flags } as i32 & libc::IFF_BROADCAST != 0
                && let Ok(b) = ioctl_on(fd, &name, libc::SIOCGIFBRDADDR)
            {
                // SAFETY: SIOCGIFBRDADDR filled in the broadaddr member.
                broadcast = Some(sockaddr_v4(&unsafe { b.ifr_ifru.ifru_broadaddr }));
            }
        }
        let mut prefix = 0;
        if let Ok(m) = ioctl_on(fd, &name, libc::SIOCGIFNETMASK) {
            // SAFETY: SIOCGIFNETMASK filled in the netmask member.
            let mask = u32::from(sockaddr_v4(&unsafe { m.ifr_ifru.ifru_netmask }));
            // As libnet: the bits up to the lowest set one.
            prefix = if mask == 0 {
                0
            } else {
                32 - mask.trailing_zeros() as i16
            };
        }
        add_interface_address(
            list,
            &name,
            IfAddress {
                ip: IpAddr::V4(ip),
                scope_id: 0,
                broadcast,
                prefix,
            },
        );
    }
    Ok(())
}

/// One line of /proc/net/if_inet6: address, interface index, prefix length, scope, flags, name.
fn parse_if_inet6(line: &str) -> Option<(String, IfAddress)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 6 || f[0].len() != 32 || !f[0].is_ascii() {
        return None;
    }
    let mut a = [0u8; 16];
    for (i, b) in a.iter_mut().enumerate() {
        *b = u8::from_str_radix(&f[0][2 * i..2 * i + 2], 16).ok()?;
    }
    let index = u32::from_str_radix(f[1], 16).ok()?;
    let prefix = u32::from_str_radix(f[2], 16).ok()?;
    let addr = IfAddress {
        ip: IpAddr::V6(Ipv6Addr::from(a)),
        scope_id: index,
        broadcast: None,
        prefix: prefix as i16,
    };
    Some((f[5].to_string(), addr))
}

/// The host's interfaces that have addresses, as libnet enumerates them: IPv4 ones first
/// (SIOCGIFCONF), then, with `ipv6`, the IPv6 addresses of /proc/net/if_inet6. Every list
/// (interfaces, their addresses and children) comes in libnet's order, which is the reverse
/// of discovery.
pub fn interfaces(ipv6: bool) -> PortResult<Vec<Interface>> {
    let mut list = Vec::new();
    match dgram_socket(libc::AF_INET) {
        Ok(fd) => {
            let r = enum_ipv4(fd, &mut list);
            close_quietly(fd);
            r?;
        }
        Err(Errno::EPROTONOSUPPORT | Errno::EAFNOSUPPORT) => {}
        Err(e) => return Err(e),
    }
    if ipv6 && let Ok(text) = std::fs::read_to_string("/proc/net/if_inet6") {
        for (name, addr) in text.lines().filter_map(parse_if_inet6) {
            add_interface_address(&mut list, &name, addr);
        }
    }
    fn reverse(list: &mut [Interface]) {
        list.reverse();
        for i in list.iter_mut() {
            i.addrs.reverse();
            reverse(&mut i.childs);
        }
    }
    reverse(&mut list);
    Ok(list)
}

// ---- Unix domain sockets (sun.nio.ch.UnixDomainSockets, jdk.net's SO_PEERCRED) ----

/// The room for a path in a `sockaddr_un` (its `sun_path`), the terminating NUL included.
pub const UNIX_PATH_MAX: usize = 108;

/// A `sockaddr_un` for `path` (NUL-terminated) and its length; ENAMETOOLONG when the path and
/// its NUL do not fit.
fn to_unix(path: &[u8]) -> PortResult<(libc::sockaddr_un, libc::socklen_t)> {
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid value.
    let mut sa: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    if path.len() >= sa.sun_path.len() {
        return Err(Errno::ENAMETOOLONG);
    }
    sa.sun_family = libc::AF_UNIX as libc::sa_family_t;
    for (d, s) in sa.sun_path.iter_mut().zip(path) {
        *d = *s as libc::c_char;
    }
    let len = std::mem::offset_of!(libc::sockaddr_un, sun_path) + path.len() + 1;
    Ok((sa, len as libc::socklen_t))
}

/// The path of a `sockaddr_un` of `len` bytes (up to its first NUL; empty when unnamed).
fn from_unix(sa: &libc::sockaddr_un, len: libc::socklen_t) -> Vec<u8> {
    let room = (len as usize).saturating_sub(std::mem::offset_of!(libc::sockaddr_un, sun_path));
    sa.sun_path[..room.min(sa.sun_path.len())]
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect()
}

/// A new Unix domain stream socket (close-on-exec).
pub fn unix_socket(owner: Owner) -> PortResult<i32> {
    // SAFETY: socket has no memory-safety preconditions.
    let fd =
        check(unsafe { libc::socket(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) })?;
    held::took_fd(owner, fd)
}

/// Binds a Unix domain socket to `path`.
pub fn unix_bind(fd: i32, path: &[u8]) -> PortResult<()> {
    let (sa, len) = to_unix(path)?;
    // SAFETY: sa is a valid sockaddr_un of len bytes.
    check(unsafe { libc::bind(fd, &sa as *const _ as *const libc::sockaddr, len) }).map(|_| ())
}

/// Connects a Unix domain socket to `path`: `Ok(true)` connected, `Ok(false)` in progress.
pub fn unix_connect(fd: i32, path: &[u8]) -> PortResult<bool> {
    let (sa, len) = to_unix(path)?;
    // SAFETY: sa is a valid sockaddr_un of len bytes.
    match check(unsafe { libc::connect(fd, &sa as *const _ as *const libc::sockaddr, len) }) {
        Ok(_) => Ok(true),
        Err(Errno::EINPROGRESS) | Err(Errno::EAGAIN) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Accepts a connection on a Unix domain socket: the new (close-on-exec) socket and the
/// peer's path (empty for an unnamed peer).
pub fn unix_accept(owner: Owner, fd: i32) -> PortResult<(i32, Vec<u8>)> {
    loop {
        // SAFETY: sockaddr_un is plain old data; all zeroes is a valid value.
        let mut sa: libc::sockaddr_un = unsafe { std::mem::zeroed() };
        let mut len = std::mem::size_of::<libc::sockaddr_un>() as libc::socklen_t;
        // SAFETY: sa and len are valid out-parameters of the sizes given.
        let r = unsafe {
            libc::accept4(
                fd,
                &mut sa as *mut _ as *mut libc::sockaddr,
                &mut len,
                libc::SOCK_CLOEXEC,
            )
        };
        if r >= 0 {
            return held::took_fd(owner, r).map(|r| (r, from_unix(&sa, len)));
        }
        match errno() {
            Errno::ECONNABORTED => continue,
            e => return Err(e),
        }
    }
}

/// The path a Unix domain socket is bound to (empty when unnamed).
pub fn unix_local_address(fd: i32) -> PortResult<Vec<u8>> {
    unix_name(fd, false)
}

/// The path of a connected Unix domain socket's peer (empty when unnamed).
pub fn unix_peer_address(fd: i32) -> PortResult<Vec<u8>> {
    unix_name(fd, true)
}

fn unix_name(fd: i32, peer: bool) -> PortResult<Vec<u8>> {
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid value.
    let mut sa: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_un>() as libc::socklen_t;
    let p = &mut sa as *mut _ as *mut libc::sockaddr;
    // SAFETY: sa and len are valid out-parameters of the sizes given.
    check(unsafe {
        if peer {
            libc::getpeername(fd, p, &mut len)
        } else {
            libc::getsockname(fd, p, &mut len)
        }
    })?;
    Ok(from_unix(&sa, len))
}

/// The user and group ids of the peer of a connected Unix domain socket (SO_PEERCRED).
pub fn peer_credentials(fd: i32) -> PortResult<(u32, u32)> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    get_option(fd, libc::SOL_SOCKET, libc::SO_PEERCRED, &mut cred)?;
    Ok((cred.uid, cred.gid))
}

// ---- InetAddress.isReachable (the JDK's ping4/ping6 and tcp_ping4/tcp_ping6) ----

/// Whether `target` answers within `timeout_ms`, as the JDK probes it: ICMP echo requests
/// (one a second) on a raw socket when one can be had (root, or CAP_NET_RAW), else a TCP
/// connection to the echo port (7), where a refusal counts as an answer. `source` binds the
/// probe to an interface's address; `ttl` > 0 limits its hops. Unreachable networks and hosts
/// the kernel reports at once are `Ok(false)`; other failures are errors.
pub fn is_reachable(
    target: SocketAddr,
    timeout_ms: i32,
    source: Option<SocketAddr>,
    ttl: i32,
) -> PortResult<bool> {
    let v6 = target.is_ipv6();
    let (domain, proto) = if v6 {
        (libc::AF_INET6, libc::IPPROTO_ICMPV6)
    } else {
        (libc::AF_INET, libc::IPPROTO_ICMP)
    };
    // SAFETY: socket has no memory-safety preconditions.
    let raw = unsafe { libc::socket(domain, libc::SOCK_RAW | libc::SOCK_CLOEXEC, proto) };
    let fd = if raw >= 0 {
        raw
    } else {
        // SAFETY: socket has no memory-safety preconditions.
        check(unsafe { libc::socket(domain, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) })?
    };
    let r = probe(fd, raw >= 0, target, timeout_ms, source, ttl);
    close_quietly(fd);
    r
}

/// Failures of sending a probe that mean "not reachable" rather than an error.
fn unreachable(e: Errno) -> bool {
    matches!(
        e,
        Errno::ENETUNREACH
            | Errno::EHOSTUNREACH
            | Errno::EINVAL
            | Errno::EADDRNOTAVAIL
            | Errno::EAFNOSUPPORT
    )
}

fn probe(
    fd: i32,
    icmp: bool,
    target: SocketAddr,
    timeout_ms: i32,
    source: Option<SocketAddr>,
    ttl: i32,
) -> PortResult<bool> {
    let v6 = target.is_ipv6();
    if ttl > 0 {
        if v6 {
            set_int_option(fd, libc::IPPROTO_IPV6, libc::IPV6_UNICAST_HOPS, ttl)?;
        } else {
            set_int_option(fd, libc::IPPROTO_IP, libc::IP_TTL, ttl)?;
        }
    }
    if let Some(src) = source {
        bind(fd, v6, src)?;
    }
    if icmp {
        icmp_ping(fd, target, timeout_ms)
    } else {
        tcp_ping(fd, target, timeout_ms)
    }
}

fn tcp_ping(fd: i32, target: SocketAddr, timeout_ms: i32) -> PortResult<bool> {
    crate::fs::set_blocking(fd, false)?;
    let echo = SocketAddr::new(target.ip(), 7);
    let echo = match (echo, target) {
        (SocketAddr::V6(mut a), SocketAddr::V6(t)) => {
            a.set_scope_id(t.scope_id());
            SocketAddr::V6(a)
        }
        (a, _) => a,
    };
    match connect(fd, target.is_ipv6(), echo) {
        Ok(true) | Err(Errno::ECONNREFUSED) => return Ok(true),
        Ok(false) => {}
        Err(e) if unreachable(e) => return Ok(false),
        Err(e) => return Err(e),
    }
    if poll(fd, libc::POLLOUT, timeout_ms as i64)? == 0 {
        return Ok(false);
    }
    match get_int_option(fd, libc::SOL_SOCKET, libc::SO_ERROR)? {
        0 => Ok(true),
        e => Ok(e == libc::ECONNREFUSED),
    }
}

const ICMP_PACKET: usize = 64;

/// An ICMP (or ICMPv6) echo request of `ICMP_PACKET` bytes with `id` and `seq`; the checksum
/// is computed for ICMPv4 (the kernel computes ICMPv6's).
fn echo_request(v6: bool, id: u16, seq: u16) -> [u8; ICMP_PACKET] {
    let mut p = [0u8; ICMP_PACKET];
    p[0] = if v6 { 128 } else { 8 };
    p[4..6].copy_from_slice(&id.to_be_bytes());
    p[6..8].copy_from_slice(&seq.to_be_bytes());
    for (i, b) in p[8..].iter_mut().enumerate() {
        *b = i as u8;
    }
    if !v6 {
        let mut sum: u32 = p
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]) as u32)
            .sum();
        while sum >> 16 != 0 {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        p[2..4].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    }
    p
}

fn icmp_ping(fd: i32, target: SocketAddr, timeout_ms: i32) -> PortResult<bool> {
    let v6 = target.is_ipv6();
    let id = (std::process::id() & 0xffff) as u16;
    let (ss, len) = to_raw(target, v6);
    let deadline =
        std::time::Instant::now() + std::time::Duration::from_millis(timeout_ms.max(0) as u64);
    let mut seq: u16 = 1;
    loop {
        let packet = echo_request(v6, id, seq);
        seq = seq.wrapping_add(1);
        // SAFETY: packet is ICMP_PACKET readable bytes; ss is a valid sockaddr of len bytes.
        let n = unsafe {
            libc::sendto(
                fd,
                packet.as_ptr() as *const libc::c_void,
                packet.len(),
                0,
                &ss as *const _ as *const libc::sockaddr,
                len,
            )
        };
        if n < 0 {
            let e = errno();
            return if unreachable(e) { Ok(false) } else { Err(e) };
        }
        // Wait for the reply up to a second, then send again, until the time is up.
        let round_end =
            (std::time::Instant::now() + std::time::Duration::from_secs(1)).min(deadline);
        loop {
            let now = std::time::Instant::now();
            if now >= round_end {
                break;
            }
            let wait = (round_end - now).as_millis().max(1) as i64;
            if poll(fd, libc::POLLIN, wait)? == 0 {
                break;
            }
            let mut buf = [0u8; 1500];
            let mut from = zeroed_storage();
            let mut flen = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
            // SAFETY: buf, from and flen are valid out-parameters of the sizes given.
            let n = unsafe {
                libc::recvfrom(
                    fd,
                    buf.as_mut_ptr() as *mut libc::c_void,
                    buf.len(),
                    libc::MSG_DONTWAIT,
                    &mut from as *mut _ as *mut libc::sockaddr,
                    &mut flen,
                )
            };
            if n < 0 {
                match errno() {
                    Errno::EAGAIN | Errno::EINTR => continue,
                    e => return Err(e),
                }
            }
            let data = &buf[..n as usize];
            // An IPv4 raw socket receives the IP header too.
            let icmp = if v6 {
                data
            } else {
                let hlen = (data.first().copied().unwrap_or(0) & 0x0f) as usize * 4;
                data.get(hlen..).unwrap_or(&[])
            };
            let reply_type = if v6 { 129 } else { 0 };
            if icmp.len() < 8 || icmp[0] != reply_type || icmp[4..6] != id.to_be_bytes() {
                continue;
            }
            let sender = from_raw(&from).map(|a| a.ip()).ok();
            if target.ip().is_unspecified() || sender == Some(target.ip()) {
                return Ok(true);
            }
        }
        if std::time::Instant::now() >= deadline {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn udp_loopback() -> (i32, SocketAddr) {
        let fd = socket(Owner::SYSTEM, false, false, false).unwrap();
        bind(fd, false, SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
        (fd, local_address(fd).unwrap())
    }

    #[test]
    fn loopback_interface_is_enumerated_with_its_flags() {
        let all = interfaces(true).unwrap();
        let lo = all.iter().find(|i| i.name == "lo").expect("no lo");
        assert!(lo.index > 0 && !lo.is_virtual);
        let v4 = lo
            .addrs
            .iter()
            .find(|a| a.ip == IpAddr::V4(Ipv4Addr::LOCALHOST))
            .expect("no 127.0.0.1");
        assert_eq!((v4.prefix, v4.broadcast), (8, None));
        let flags = interface_flags("lo").unwrap();
        assert_ne!(flags & libc::IFF_LOOPBACK, 0);
        assert!(interface_mtu("lo").unwrap() > 0);
        assert_eq!(interface_hardware_address("lo"), Ok(None));
        assert_eq!(interface_flags("no-such-if0"), Err(Errno::ENODEV));
        assert_eq!(interface_index("no-such-if0"), -1);
        assert_eq!(interface_flags("lo\0x").map(|_| ()), Ok(()));
    }

    #[test]
    fn if_inet6_lines_parse() {
        let (name, a) =
            parse_if_inet6("00000000000000000000000000000001 01 80 10 80       lo").unwrap();
        assert_eq!(name, "lo");
        assert_eq!(
            a,
            IfAddress {
                ip: IpAddr::V6(Ipv6Addr::LOCALHOST),
                scope_id: 1,
                broadcast: None,
                prefix: 128
            }
        );
        assert_eq!(parse_if_inet6("zz 01 80 10 80 lo"), None);
        assert_eq!(
            parse_if_inet6("000000000000000000000000000000\u{e9} 01 80 10 80 lo"),
            None
        );
        assert_eq!(parse_if_inet6(""), None);
    }

    #[test]
    fn sockaddr_layout_is_the_c_one() {
        let l = sockaddr_layout();
        assert_eq!((l.af_inet, l.af_inet6), (libc::AF_INET, libc::AF_INET6));
        assert_eq!(
            (l.sizeof_sockaddr4, l.sizeof_sockaddr6, l.sizeof_family),
            (16, 28, 2)
        );
        assert_eq!(
            (l.offset_family, l.offset_sin4_port, l.offset_sin4_addr),
            (0, 2, 4)
        );
        assert_eq!(
            (
                l.offset_sin6_port,
                l.offset_sin6_flowinfo,
                l.offset_sin6_addr,
                l.offset_sin6_scope_id
            ),
            (2, 4, 8, 24)
        );
    }

    #[test]
    fn datagram_round_trip_through_native_addresses() {
        let (a, a_addr) = udp_loopback();
        let (b, b_addr) = udp_loopback();
        let (target, target_len) = to_raw(b_addr, false);
        let msg = *b"datagram";
        assert_eq!(
            send_to(
                a,
                msg.as_ptr() as usize,
                msg.len(),
                &target as *const _ as usize,
                target_len as usize
            ),
            Ok(8)
        );
        let mut sender = zeroed_storage();
        let mut buf = [0u8; 4];
        // A longer datagram is truncated to the buffer.
        assert_eq!(
            recv_from(
                b,
                buf.as_mut_ptr() as usize,
                buf.len(),
                &mut sender as *mut _ as usize
            ),
            Ok(4)
        );
        assert_eq!(&buf, b"data");
        assert_eq!(from_raw(&sender), Ok(a_addr));
        // An oversized address length is refused before the call.
        assert_eq!(
            send_to(
                a,
                msg.as_ptr() as usize,
                1,
                &target as *const _ as usize,
                1000
            ),
            Err(Errno::EINVAL)
        );
        connect(a, false, b_addr).unwrap();
        assert_eq!(remote_address(a), Ok(b_addr));
        disconnect(a, false).unwrap();
        assert_eq!(remote_address(a), Err(Errno::ENOTCONN));
        crate::fs::close(Owner::SYSTEM, a).unwrap();
        crate::fs::close(Owner::SYSTEM, b).unwrap();
    }

    #[test]
    fn a_thread_blocked_in_recvfrom_is_woken_by_the_wakeup_signal() {
        use std::sync::atomic::{AtomicI64, Ordering};
        use std::sync::{Arc, mpsc};
        crate::install_wakeup_signal().unwrap();
        let (fd, _) = udp_loopback();
        let token = Arc::new(AtomicI64::new(0));
        let (tx, rx) = mpsc::channel();
        let t = {
            let token = token.clone();
            std::thread::spawn(move || {
                token.store(crate::current_thread_token(), Ordering::SeqCst);
                let mut sender = zeroed_storage();
                let mut buf = [0u8; 8];
                tx.send(recv_from(
                    fd,
                    buf.as_mut_ptr() as usize,
                    buf.len(),
                    &mut sender as *mut _ as usize,
                ))
                .unwrap();
            })
        };
        while token.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        // A signal that arrives before the thread enters recvfrom is lost: repeat until it wakes.
        let r = loop {
            crate::wake_thread(token.load(Ordering::SeqCst)).unwrap();
            if let Ok(r) = rx.recv_timeout(std::time::Duration::from_millis(20)) {
                break r;
            }
        };
        assert_eq!(r, Err(Errno::EINTR));
        t.join().unwrap();
        crate::fs::close(Owner::SYSTEM, fd).unwrap();
        assert_eq!(crate::wake_thread(-1), Err(Errno::ESRCH));
        assert_eq!(crate::wake_thread(0), Err(Errno::ESRCH));
    }
}
