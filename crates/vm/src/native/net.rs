//! Natives of java.net (InetAddress and its implementations) and of the socket side of
//! sun.nio.ch (Net, SocketDispatcher, EPoll, EventFD), following the JDK's libnet and libnio.
//! Host calls go through [`port::net`]; the descriptor-level IOUtil and
//! FileDispatcherImpl natives that sockets share with files live in `nio.rs`.
//!
//! Calls that may wait (accept, connect, read, poll, epoll_wait) run inside `t.blocking`, so
//! the domain can collect meanwhile: they read everything they need from Java objects first,
//! and re-read their reference arguments with `t.arg` afterwards.

use super::io::fdval;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV6};

use super::{Registry, jfd, jint, jlong, nonnull, ret_bool, ret_fd, ret_int, ret_obj};
use crate::heap::ObjRef;
use crate::jdk::{self, JdkClass};
use crate::thread::{JResult, JThread, Thrown};
use port::{Errno, Fd, Host, fs, net};

pub fn register(r: &mut Registry) {
    register_inet(r);
    register_net(r);
    register_multicast(r);
    register_dispatchers(r);
    register_datagrams(r);
    register_linux_options(r);
    register_network_interface(r);
    register_async_channels(r);
    register_unix_domain(r);
    register_port_config(r);
}

// IOStatus codes.
const IOS_EOF: i32 = -1;
const IOS_UNAVAILABLE: i32 = -2;
const IOS_INTERRUPTED: i32 = -3;

// ---- helpers ----

fn throw_errno(t: &mut JThread, class: &str, e: Errno) -> Thrown {
    let msg = e.message();
    t.throw_new(class, Some(&msg))
}

/// The exception class libnio's `handleSocketError` throws for a socket call's errno.
fn socket_error_class(e: Errno) -> &'static str {
    match e {
        Errno::EPROTO => "java/net/ProtocolException",
        Errno::ECONNREFUSED | Errno::ETIMEDOUT | Errno::ENOTCONN => "java/net/ConnectException",
        Errno::EHOSTUNREACH => "java/net/NoRouteToHostException",
        Errno::EADDRINUSE | Errno::EADDRNOTAVAIL | Errno::EACCES => "java/net/BindException",
        _ => "java/net/SocketException",
    }
}

/// libnio's `handleSocketError`: the exception of `socket_error_class` with the OS message.
fn socket_error(t: &mut JThread, e: Errno) -> Thrown {
    throw_errno(t, socket_error_class(e), e)
}

fn sock<T>(t: &mut JThread, r: Result<T, Errno>) -> JResult<T> {
    r.map_err(|e| socket_error(t, e))
}

/// A socket option call's result; a failure is a SocketException with the OS message.
fn sock_option<T>(t: &mut JThread, r: Result<T, Errno>) -> JResult<T> {
    r.map_err(|e| throw_errno(t, "java/net/SocketException", e))
}

/// The 16 bytes of an IPv6 address in a byte[] (an argument or Inet6Address's `ipaddress`).
fn ipv6_bytes(t: &mut JThread, v: u64) -> JResult<[u8; 16]> {
    let arr = nonnull(t, v)?;
    let data = arr.array_slice::<u8>();
    if data.len() != 16 {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("bad IPv6 address"),
        ));
    }
    let mut a = [0u8; 16];
    a.copy_from_slice(data);
    Ok(a)
}

/// The address in a java.net.InetAddress (Inet4Address or Inet6Address) and its scope id.
fn inet_address(t: &mut JThread, v: u64) -> JResult<IpAddr> {
    let ia = nonnull(t, v)?;
    if let Some(h6) = holder6(t, ia)? {
        let Some(h6) = h6 else {
            return Err(t.throw_new("java/lang/NullPointerException", None));
        };
        let off = t.jdk::<jdk::Inet6AddressHolder>(h6)?.ipaddress;
        let a = ipv6_bytes(t, crate::heap::to_slot(h6.read_ref(off)))?;
        return Ok(IpAddr::V6(Ipv6Addr::from(a)));
    }
    let off = t.jdk::<jdk::InetAddress>(ia)?.holder;
    let Some(h) = ia.read_ref(off) else {
        return Err(t.throw_new("java/lang/NullPointerException", None));
    };
    let off = t.jdk::<jdk::InetAddressHolder>(h)?.address;
    Ok(IpAddr::V4(Ipv4Addr::from(h.read::<i32>(off) as u32)))
}

/// For an Inet6Address, its `holder6` (maybe null); None for another InetAddress.
fn holder6(t: &mut JThread, ia: ObjRef) -> JResult<Option<Option<ObjRef>>> {
    let inet6 = t.jdk_class::<jdk::Inet6Address>()?;
    if !ia.class().is_subtype_of(inet6.class()) {
        return Ok(None);
    }
    Ok(Some(ia.read_ref(inet6.holder6)))
}

fn scope_id(t: &mut JThread, v: u64) -> JResult<u32> {
    let ia = nonnull(t, v)?;
    let Some(Some(h6)) = holder6(t, ia)? else {
        return Ok(0);
    };
    let off = t.jdk::<jdk::Inet6AddressHolder>(h6)?.scope_id;
    Ok(h6.read::<i32>(off) as u32)
}

fn socket_address(t: &mut JThread, ia: u64, port: i32) -> JResult<SocketAddr> {
    let ip = inet_address(t, ia)?;
    let port = port as u16;
    Ok(match ip {
        IpAddr::V4(v4) => SocketAddr::new(IpAddr::V4(v4), port),
        IpAddr::V6(v6) => SocketAddr::V6(SocketAddrV6::new(v6, port, 0, scope_id(t, ia)?)),
    })
}

/// A new Inet4Address or Inet6Address for `ip` (with `host` as its host name, if any).
fn new_inet_address(
    t: &mut JThread,
    host: Option<&str>,
    ip: IpAddr,
    scope: u32,
) -> JResult<ObjRef> {
    let mark = t.handles.len();
    let host_slot = match host {
        Some(h) => {
            let s = t.new_string(h)?;
            Some(t.handle(s))
        }
        None => None,
    };
    let bytes = match ip {
        IpAddr::V4(a) => t.new_byte_array(&a.octets())?,
        IpAddr::V6(a) => t.new_byte_array(&a.octets())?,
    };
    let host_v = host_slot.map_or(0, |h| t.handle_get(h).slot());
    let r = match ip {
        IpAddr::V4(_) => {
            let c = t.load_boot("java/net/Inet4Address");
            c.and_then(|c| t.construct(c, "(Ljava/lang/String;[B)V", &[host_v, bytes.slot()]))
        }
        IpAddr::V6(_) => {
            let c = t.load_boot("java/net/Inet6Address");
            c.and_then(|c| {
                t.construct(
                    c,
                    "(Ljava/lang/String;[BI)V",
                    &[host_v, bytes.slot(), ret_int(scope as i32)],
                )
            })
        }
    };
    t.handles.truncate(mark);
    r
}

pub(super) fn new_inet_address_of(t: &mut JThread, a: SocketAddr) -> JResult<ObjRef> {
    match a {
        SocketAddr::V4(v4) => new_inet_address(t, None, IpAddr::V4(*v4.ip()), 0),
        SocketAddr::V6(v6) => new_inet_address(t, None, IpAddr::V6(*v6.ip()), v6.scope_id()),
    }
}

/// A new `class`[] of `len` elements, element `k` made by `make` (the array is kept in a
/// handle meanwhile).
fn new_object_array(
    t: &mut JThread,
    class: &str,
    len: usize,
    mut make: impl FnMut(&mut JThread, usize) -> JResult<ObjRef>,
) -> JResult<ObjRef> {
    let c = t.load_boot(class)?;
    let arr = t.new_array_of(c, len as i32)?;
    let h = t.handle(arr);
    for k in 0..len {
        let o = match make(t, k) {
            Ok(o) => o,
            Err(e) => {
                t.handles.truncate(h);
                return Err(e);
            }
        };
        let arr = t.handle_get(h);
        t.domain
            .heap
            .write_ref(arr, base::layout::ARRAY_BASE + k * 8, Some(o));
    }
    let arr = t.handle_get(h);
    t.handles.truncate(h);
    Ok(arr)
}

// ---- java.net ----

fn register_inet(r: &mut Registry) {
    for c in [
        "java/net/InetAddress",
        "java/net/Inet4Address",
        "java/net/Inet6Address",
        "java/net/NetworkInterface",
        "java/net/DatagramPacket",
    ] {
        r.add(c, "init", "()V", |_, _| Ok(0));
    }
    r.add(
        "java/net/InetAddressImplFactory",
        "isIPv6Supported",
        "()Z",
        |t, _| Ok(ret_bool(t.domain.host().ipv6_available())),
    );
    for (c, v6) in [
        ("java/net/Inet4AddressImpl", false),
        ("java/net/Inet6AddressImpl", true),
    ] {
        r.add(c, "getLocalHostName", "()Ljava/lang/String;", |t, _| {
            let name = t
                .domain
                .host()
                .host_name()
                .unwrap_or_else(|_| "localhost".into());
            Ok(t.new_string(&name)?.slot())
        });
        r.add(
            c,
            "getHostByAddr",
            "([B)Ljava/lang/String;",
            get_host_by_addr,
        );
        r.add(
            c,
            "lookupAllHostAddr",
            "(Ljava/lang/String;)[Ljava/net/InetAddress;",
            if v6 { lookup_all_v6 } else { lookup_all_v4 },
        );
    }
    r.add(
        "java/net/Inet4AddressImpl",
        "isReachable0",
        "([BI[BI)Z",
        inet4_is_reachable,
    );
    r.add(
        "java/net/Inet6AddressImpl",
        "isReachable0",
        "([BII[BII)Z",
        inet6_is_reachable,
    );
}

/// The address in a byte[] of 4 or 16 bytes (None: null), with an IPv6 scope.
fn address_bytes(t: &mut JThread, v: u64, scope: i32) -> JResult<Option<SocketAddr>> {
    let Some(arr) = super::obj(v) else {
        return Ok(None);
    };
    let b = arr.array_slice::<u8>();
    let ip = match b.len() {
        4 => IpAddr::V4(Ipv4Addr::new(b[0], b[1], b[2], b[3])),
        16 => {
            let mut o = [0u8; 16];
            o.copy_from_slice(b);
            let scope = if scope > 0 { scope as u32 } else { 0 };
            return Ok(Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(o),
                0,
                0,
                scope,
            ))));
        }
        _ => return Err(t.throw_new("java/net/SocketException", Some("Invalid address"))),
    };
    Ok(Some(SocketAddr::new(ip, 0)))
}

/// `isReachable0`: the host's probe (see `port::net::is_reachable`); failures other than an
/// unreachable network or host are SocketExceptions with the OS message.
fn is_reachable(
    t: &mut JThread,
    target: Option<SocketAddr>,
    timeout: i32,
    source: Option<SocketAddr>,
    ttl: i32,
) -> JResult<u64> {
    let Some(target) = target else {
        return Err(t.throw_new("java/lang/NullPointerException", None));
    };
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.is_reachable(target, timeout, source, ttl));
    sock_option(t, r).map(ret_bool)
}

fn inet4_is_reachable(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // (this, addr, timeout, ifaddr, ttl)
    let target = address_bytes(t, a[1], -1)?;
    let source = address_bytes(t, a[3], -1)?;
    is_reachable(t, target, jint(a[2]), source, jint(a[4]))
}

fn inet6_is_reachable(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // (this, addr, scope, timeout, inf, ttl, if_scope)
    let target = address_bytes(t, a[1], jint(a[2]))?;
    let source = address_bytes(t, a[4], jint(a[6]))?;
    // A source of the other family cannot be bound: the JDK's Java side never passes one.
    let source = source.filter(|s| target.is_some_and(|t| t.is_ipv6() == s.is_ipv6()));
    is_reachable(t, target, jint(a[3]), source, jint(a[5]))
}

fn get_host_by_addr(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let arr = nonnull(t, a[1])?;
    let data = arr.array_slice::<u8>().to_vec();
    let ip = match data.len() {
        4 => IpAddr::V4(Ipv4Addr::new(data[0], data[1], data[2], data[3])),
        16 => {
            let mut b = [0u8; 16];
            b.copy_from_slice(&data);
            IpAddr::V6(Ipv6Addr::from(b))
        }
        _ => return Err(t.throw_new("java/net/UnknownHostException", None)),
    };
    let backend = t.domain.host().clone();
    match t.blocking(|| backend.host_by_addr(ip)) {
        Some(name) => Ok(t.new_string(&name)?.slot()),
        None => Err(t.throw_new("java/net/UnknownHostException", None)),
    }
}

fn lookup_all_v4(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    lookup_all(t, a, false)
}

fn lookup_all_v6(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    lookup_all(t, a, true)
}

/// `InetAddress[] lookupAllHostAddr(String host)`: the resolver's addresses, each named `host`.
fn lookup_all(t: &mut JThread, a: &[u64], v6: bool) -> JResult<u64> {
    let host_obj = nonnull(t, a[1])?;
    let host = t.rust_string(host_obj);
    let backend = t.domain.host().clone();
    let found = t.blocking(|| backend.lookup_host(&host, v6));
    let ips = match found {
        Ok(ips) => ips,
        Err(msg) => {
            let msg = format!("{host}: {msg}");
            return Err(t.throw_new("java/net/UnknownHostException", Some(&msg)));
        }
    };
    let arr = new_object_array(t, "java/net/InetAddress", ips.len(), |t, k| {
        new_inet_address(t, Some(&host), ips[k], 0)
    })?;
    Ok(arr.slot())
}

// ---- java.net.NetworkInterface ----

fn register_network_interface(r: &mut Registry) {
    let n = "java/net/NetworkInterface";
    r.add(n, "getAll", "()[Ljava/net/NetworkInterface;", ni_get_all);
    r.add(
        n,
        "getByName0",
        "(Ljava/lang/String;)Ljava/net/NetworkInterface;",
        |t, a| {
            let name_obj = nonnull(t, a[0])?;
            let name = t.rust_string(name_obj);
            let all = interfaces(t)?;
            let found = all.iter().find(|i| i.name == name);
            network_interface_or_null(t, found)
        },
    );
    r.add(
        n,
        "getByIndex0",
        "(I)Ljava/net/NetworkInterface;",
        |t, a| {
            let index = jint(a[0]);
            if index <= 0 {
                return Ok(0);
            }
            let all = interfaces(t)?;
            let found = all.iter().find(|i| i.index == index);
            network_interface_or_null(t, found)
        },
    );
    r.add(
        n,
        "getByInetAddress0",
        "(Ljava/net/InetAddress;)Ljava/net/NetworkInterface;",
        |t, a| {
            let all = interfaces(t)?;
            let found = bound_interface(t, &all, a[0])?.map(|i| &all[i]);
            network_interface_or_null(t, found)
        },
    );
    r.add(
        n,
        "boundInetAddress0",
        "(Ljava/net/InetAddress;)Z",
        |t, a| {
            let all = interfaces(t)?;
            Ok(ret_bool(bound_interface(t, &all, a[0])?.is_some()))
        },
    );
    r.add(n, "isUp0", "(Ljava/lang/String;I)Z", |t, a| {
        let f = interface_flags(t, a[0])?;
        Ok(ret_bool(
            f & libc::IFF_UP != 0 && f & libc::IFF_RUNNING != 0,
        ))
    });
    r.add(n, "isLoopback0", "(Ljava/lang/String;I)Z", |t, a| {
        Ok(ret_bool(
            interface_flags(t, a[0])? & libc::IFF_LOOPBACK != 0,
        ))
    });
    r.add(n, "supportsMulticast0", "(Ljava/lang/String;I)Z", |t, a| {
        Ok(ret_bool(
            interface_flags(t, a[0])? & libc::IFF_MULTICAST != 0,
        ))
    });
    r.add(n, "isP2P0", "(Ljava/lang/String;I)Z", |t, a| {
        Ok(ret_bool(
            interface_flags(t, a[0])? & libc::IFF_POINTOPOINT != 0,
        ))
    });
    r.add(n, "getMacAddr0", "([BLjava/lang/String;I)[B", |t, a| {
        // Linux reads the hardware address by name; the IPv4 address argument is not needed.
        let name = interface_name(t, a[1])?;
        match t.domain.host().interface_hardware_address(&name) {
            Ok(Some(mac)) => Ok(t.new_byte_array(&mac)?.slot()),
            Ok(None) => Ok(0),
            Err(e) => Err(ioctl_error(t, e, "ioctl(SIOCGIFHWADDR) failed")),
        }
    });
    r.add(n, "getMTU0", "(Ljava/lang/String;I)I", |t, a| {
        let name = interface_name(t, a[0])?;
        match t.domain.host().interface_mtu(&name) {
            Ok(mtu) => Ok(ret_int(mtu)),
            Err(e) => Err(ioctl_error(t, e, "ioctl(SIOCGIFMTU) failed")),
        }
    });
}

/// A new NetworkInterface for `i`, or null.
fn network_interface_or_null(t: &mut JThread, i: Option<&net::Interface>) -> JResult<u64> {
    match i {
        Some(i) => Ok(new_network_interface(t, i)?.slot()),
        None => Ok(0),
    }
}

/// libnet's SocketException for a failed call: the error text, then the call in parentheses.
fn ioctl_error(t: &mut JThread, e: Errno, call: &str) -> Thrown {
    let msg = format!("{} ({call})", e.message());
    t.throw_new("java/net/SocketException", Some(&msg))
}

fn interface_name(t: &mut JThread, v: u64) -> JResult<String> {
    match crate::heap::from_slot(v) {
        Some(o) => Ok(t.rust_string(o)),
        None => Err(t.throw_new(
            "java/lang/NullPointerException",
            Some("network interface name is NULL"),
        )),
    }
}

fn interface_flags(t: &mut JThread, name: u64) -> JResult<i32> {
    let name = interface_name(t, name)?;
    t.domain
        .host()
        .interface_flags(&name)
        .map_err(|e| ioctl_error(t, e, "ioctl SIOCGLIFFLAGS failed"))
}

/// The host's interfaces, in libnet's order. As libnet's `ipv6_available()`, IPv6 addresses
/// are left out under -Djava.net.preferIPv4Stack=true.
fn interfaces(t: &mut JThread) -> JResult<Vec<net::Interface>> {
    let prefer_v4 =
        t.vm.opts
            .props
            .iter()
            .rev()
            .find(|(k, _)| k == "java.net.preferIPv4Stack")
            .is_some_and(|(_, v)| v.eq_ignore_ascii_case("true"));
    t.domain
        .host()
        .interfaces(!prefer_v4 && t.domain.host().ipv6_available())
        .map_err(|e| ioctl_error(t, e, "ioctl(SIOCGIFCONF) failed"))
}

/// The position in `all` of the (top-level) interface that has the address of the
/// InetAddress `ia` (libnet's `find_bound_interface`). An IPv6 address with a scope id
/// matches only on the interface of that scope.
fn bound_interface(t: &mut JThread, all: &[net::Interface], ia: u64) -> JResult<Option<usize>> {
    let ip = inet_address(t, ia)?;
    let scope = scope_id(t, ia)?;
    for (pos, i) in all.iter().enumerate() {
        for a in &i.addrs {
            if a.ip.is_ipv6() != ip.is_ipv6() {
                continue;
            }
            if ip.is_ipv6() && scope != 0 && scope != a.scope_id {
                // libnet stops looking at this interface's addresses here.
                break;
            }
            if a.ip == ip {
                return Ok(Some(pos));
            }
        }
    }
    Ok(None)
}

/// `NetworkInterface[] getAll()`: every interface with an address; null when there is none.
fn ni_get_all(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let all = interfaces(t)?;
    if all.is_empty() {
        return Ok(0);
    }
    let arr = new_object_array(t, "java/net/NetworkInterface", all.len(), |t, k| {
        new_network_interface(t, &all[k])
    })?;
    Ok(arr.slot())
}

/// A new java.net.NetworkInterface for `i`, with its addresses, bindings and sub-interfaces
/// (libnet's `createNetworkInterface`).
fn new_network_interface(t: &mut JThread, i: &net::Interface) -> JResult<ObjRef> {
    let mark = t.handles.len();
    let r = build_network_interface(t, i);
    t.handles.truncate(mark);
    r
}

fn set_ref(t: &mut JThread, holder: ObjRef, off: usize, v: Option<ObjRef>) {
    t.domain.heap.write_ref(holder, off, v);
}

fn set_element(t: &mut JThread, arr_handle: usize, k: usize, v_handle: usize) {
    let arr = t.handle_get(arr_handle);
    let v = t.handle_get(v_handle);
    t.domain
        .heap
        .write_ref(arr, base::layout::ARRAY_BASE + k * 8, Some(v));
}

/// Builds the object for `new_network_interface`, leaving handles for it to release.
fn build_network_interface(t: &mut JThread, i: &net::Interface) -> JResult<ObjRef> {
    let ni_class = t.load_boot("java/net/NetworkInterface")?;
    let ia_class = t.load_boot("java/net/InetAddress")?;
    let ib_class = t.load_boot("java/net/InterfaceAddress")?;
    let nif = t.construct(ni_class, "()V", &[])?;
    let ni = t.jdk::<jdk::NetworkInterface>(nif)?;
    let hn = t.handle(nif);
    let name = t.new_string(&i.name)?;
    let nif = t.handle_get(hn);
    set_ref(t, nif, ni.name, Some(name));
    set_ref(t, nif, ni.display_name, Some(name));
    nif.write::<i32>(ni.index, i.index);
    nif.write::<u8>(ni.is_virtual, i.is_virtual as u8);

    let addrs = t.new_array_of(ia_class, i.addrs.len() as i32)?;
    let ha = t.handle(addrs);
    let binds = t.new_array_of(ib_class, i.addrs.len() as i32)?;
    let hb = t.handle(binds);
    for (k, a) in i.addrs.iter().enumerate() {
        // libnet sets an IPv6 scope (id and interface) only when it is not zero; -1 leaves it
        // unset.
        let scope = if a.scope_id == 0 {
            u32::MAX
        } else {
            a.scope_id
        };
        let ia = new_inet_address(t, None, a.ip, scope)?;
        let hia = t.handle(ia);
        if a.ip.is_ipv6()
            && a.scope_id != 0
            && let Some(Some(h6)) = holder6(t, ia)?
        {
            let off = t.jdk::<jdk::Inet6AddressHolder>(h6)?.scope_ifname;
            let nif = t.handle_get(hn);
            set_ref(t, h6, off, Some(nif));
        }
        let ib = t.construct(ib_class, "()V", &[])?;
        let ifa = t.jdk::<jdk::InterfaceAddress>(ib)?;
        let hib = t.handle(ib);
        if let Some(b) = a.broadcast {
            let bo = new_inet_address(t, None, IpAddr::V4(b), 0)?;
            let ib = t.handle_get(hib);
            set_ref(t, ib, ifa.broadcast, Some(bo));
        }
        let ib = t.handle_get(hib);
        let ia = t.handle_get(hia);
        set_ref(t, ib, ifa.address, Some(ia));
        ib.write::<i16>(ifa.mask_length, a.prefix);
        set_element(t, ha, k, hia);
        set_element(t, hb, k, hib);
        t.handles.truncate(hia);
    }

    let childs = t.new_array_of(ni_class, i.childs.len() as i32)?;
    let hc = t.handle(childs);
    for (k, c) in i.childs.iter().enumerate() {
        let co = new_network_interface(t, c)?;
        let hco = t.handle(co);
        let nif = t.handle_get(hn);
        set_ref(t, co, ni.parent, Some(nif));
        set_element(t, hc, k, hco);
        t.handles.truncate(hco);
    }

    let nif = t.handle_get(hn);
    for (off, h) in [(ni.addrs, ha), (ni.bindings, hb), (ni.childs, hc)] {
        let v = t.handle_get(h);
        set_ref(t, nif, off, Some(v));
    }
    Ok(nif)
}

// ---- sun.nio.ch.Net ----

fn register_net(r: &mut Registry) {
    let n = "sun/nio/ch/Net";
    r.add(n, "isIPv6Available0", "()Z", |t, _| {
        Ok(ret_bool(t.domain.host().ipv6_available()))
    });
    r.add(n, "isReusePortAvailable0", "()Z", |t, _| {
        Ok(ret_bool(t.domain.host().reuse_port_available()))
    });
    r.add(n, "isExclusiveBindAvailable", "()I", |_, _| Ok(ret_int(-1)));
    r.add(n, "shouldShutdownWriteBeforeClose0", "()Z", |_, _| {
        Ok(ret_bool(false))
    });
    r.add(n, "shouldSetBothIPv4AndIPv6Options0", "()Z", |_, _| {
        Ok(ret_bool(true))
    });
    r.add(n, "canIPv6SocketJoinIPv4Group0", "()Z", |_, _| {
        Ok(ret_bool(true))
    });
    // Linux: IPv6 sockets join IPv4 groups with IP_ADD_MEMBERSHIP, not IPV6_ADD_MEMBERSHIP.
    r.add(n, "canJoin6WithIPv4Group0", "()Z", |_, _| {
        Ok(ret_bool(false))
    });
    r.add(
        n,
        "canUseIPv6OptionsWithIPv4LocalAddress0",
        "()Z",
        |_, _| Ok(ret_bool(true)),
    );
    r.add(n, "pollinValue", "()S", |_, _| {
        Ok(libc::POLLIN as u16 as u64)
    });
    r.add(n, "polloutValue", "()S", |_, _| {
        Ok(libc::POLLOUT as u16 as u64)
    });
    r.add(n, "pollerrValue", "()S", |_, _| {
        Ok(libc::POLLERR as u16 as u64)
    });
    r.add(n, "pollhupValue", "()S", |_, _| {
        Ok(libc::POLLHUP as u16 as u64)
    });
    r.add(n, "pollnvalValue", "()S", |_, _| {
        Ok(libc::POLLNVAL as u16 as u64)
    });
    r.add(n, "pollconnValue", "()S", |_, _| {
        Ok(libc::POLLOUT as u16 as u64)
    });
    r.add(n, "socket0", "(ZZZZ)I", |t, a| {
        let r = t.domain.host().socket(a[0] != 0, a[1] != 0, a[2] != 0);
        sock(t, r).map(ret_fd)
    });
    r.add(
        n,
        "bind0",
        "(Ljava/io/FileDescriptor;ZZLjava/net/InetAddress;I)V",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let sa = socket_address(t, a[3], jint(a[4]))?;
            let r = t.domain.host().bind(fd, a[1] != 0, sa);
            sock(t, r).map(|_| 0)
        },
    );
    r.add(n, "listen", "(Ljava/io/FileDescriptor;I)V", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().listen(fd, jint(a[1]));
        sock(t, r).map(|_| 0)
    });
    r.add(
        n,
        "connect0",
        "(ZLjava/io/FileDescriptor;Ljava/net/InetAddress;I)I",
        |t, a| {
            let fd = fdval(t, a[1])?;
            let sa = socket_address(t, a[2], jint(a[3]))?;
            let v6 = a[0] != 0;
            let backend = t.domain.host().clone();
            match t.blocking(|| backend.connect(fd, v6, sa)) {
                Ok(true) => Ok(ret_int(1)),
                Ok(false) => Ok(ret_int(IOS_UNAVAILABLE)),
                Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
                Err(e) => Err(socket_error(t, e)),
            }
        },
    );
    r.add(
        n,
        "accept",
        "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;[Ljava/net/InetSocketAddress;)I",
        net_accept,
    );
    r.add(n, "shutdown", "(Ljava/io/FileDescriptor;I)V", |t, a| {
        let fd = fdval(t, a[0])?;
        match t.domain.host().shutdown(fd, jint(a[1])) {
            Ok(()) | Err(Errno::ENOTCONN) => Ok(0),
            Err(e) => Err(socket_error(t, e)),
        }
    });
    r.add(n, "localPort", "(Ljava/io/FileDescriptor;)I", |t, a| {
        socket_name(t, a[0], false).map(|sa| ret_int(sa.port() as i32))
    });
    r.add(n, "remotePort", "(Ljava/io/FileDescriptor;)I", |t, a| {
        socket_name(t, a[0], true).map(|sa| ret_int(sa.port() as i32))
    });
    r.add(
        n,
        "localInetAddress",
        "(Ljava/io/FileDescriptor;)Ljava/net/InetAddress;",
        |t, a| {
            let sa = socket_name(t, a[0], false)?;
            new_inet_address_of(t, sa).map(|o| ret_obj(Some(o)))
        },
    );
    r.add(
        n,
        "remoteInetAddress",
        "(Ljava/io/FileDescriptor;)Ljava/net/InetAddress;",
        |t, a| {
            let sa = socket_name(t, a[0], true)?;
            new_inet_address_of(t, sa).map(|o| ret_obj(Some(o)))
        },
    );
    r.add(
        n,
        "getIntOption0",
        "(Ljava/io/FileDescriptor;ZII)I",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let r = t.domain.host().get_int_option(fd, jint(a[2]), jint(a[3]));
            sock_option(t, r).map(ret_int)
        },
    );
    r.add(
        n,
        "setIntOption0",
        "(Ljava/io/FileDescriptor;ZIIIZ)V",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let r = t
                .domain
                .host()
                .set_int_option(fd, jint(a[2]), jint(a[3]), jint(a[4]));
            sock_option(t, r).map(|_| 0)
        },
    );
    r.add(n, "poll", "(Ljava/io/FileDescriptor;IJ)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (events, timeout) = (jint(a[1]) as i16, jlong(a[2]));
        let backend = t.domain.host().clone();
        match t.blocking(|| backend.poll(fd, events, timeout)) {
            Ok(rev) => Ok(ret_int(rev as u16 as i32)),
            Err(Errno::EINTR) => Ok(ret_int(0)),
            Err(e) => Err(socket_error(t, e)),
        }
    });
    r.add(n, "pollConnect", "(Ljava/io/FileDescriptor;J)Z", |t, a| {
        let fd = fdval(t, a[0])?;
        let timeout = jlong(a[1]);
        let backend = t.domain.host().clone();
        match t.blocking(|| backend.poll_connect(fd, timeout)) {
            Ok(done) => Ok(ret_bool(done)),
            Err(Errno::EINTR) => Ok(ret_bool(false)),
            Err(e) => Err(socket_error(t, e)),
        }
    });
    r.add(n, "available", "(Ljava/io/FileDescriptor;)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().socket_available(fd);
        sock(t, r).map(ret_int)
    });
    r.add(n, "sendOOB", "(Ljava/io/FileDescriptor;B)I", |t, a| {
        let fd = fdval(t, a[0])?;
        match t.domain.host().send_oob(fd, a[1] as u8) {
            Ok(n) => Ok(ret_int(n as i32)),
            Err(Errno::EAGAIN) => Ok(ret_int(IOS_UNAVAILABLE)),
            Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
            Err(e) => Err(socket_error(t, e)),
        }
    });
}

/// The natives of the asynchronous socket channels (their waiting is EPollPort's, in Java).
fn register_async_channels(r: &mut Registry) {
    // A connect that EPoll reported finished: its error, thrown as libnio's handleSocketError.
    let n = "sun/nio/ch/UnixAsynchronousSocketChannelImpl";
    r.add(n, "checkConnect", "(I)V", |t, a| {
        match t
            .domain
            .host()
            .get_int_option(jfd(a[0]), libc::SOL_SOCKET, libc::SO_ERROR)
        {
            Ok(0) => Ok(0),
            Ok(e) => Err(socket_error(t, Errno(e))),
            Err(e) => Err(socket_error(t, e)),
        }
    });
    let n = "sun/nio/ch/UnixAsynchronousServerSocketChannelImpl";
    r.add(n, "initIDs", "()V", |_, _| Ok(0));
    r.add(
        n,
        "accept0",
        "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;[Ljava/net/InetSocketAddress;)I",
        net_accept,
    );
}

/// The local (or, with `remote`, the peer) address of the socket of FileDescriptor `fdo`.
fn socket_name(t: &mut JThread, fdo: u64, remote: bool) -> JResult<SocketAddr> {
    let fd = fdval(t, fdo)?;
    let r = if remote {
        t.domain.host().remote_address(fd)
    } else {
        t.domain.host().local_address(fd)
    };
    sock(t, r)
}

/// `int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa)`.
fn net_accept(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = fdval(t, a[0])?;
    let backend = t.domain.host().clone();
    let (newfd, peer) = match t.blocking(|| backend.accept(fd)) {
        Ok(r) => r,
        Err(Errno::EAGAIN) => return Ok(ret_int(IOS_UNAVAILABLE)),
        Err(Errno::EINTR) => return Ok(ret_int(IOS_INTERRUPTED)),
        Err(e) => return Err(throw_errno(t, "java/io/IOException", e)),
    };
    finish_accept(t, newfd, |t| {
        let ia = new_inet_address_of(t, peer)?;
        let h = t.handle(ia);
        let isa_class = t.load_boot("java/net/InetSocketAddress")?;
        let ia = t.handle_get(h);
        let isa = t.construct(
            isa_class,
            "(Ljava/net/InetAddress;I)V",
            &[ia.slot(), ret_int(peer.port() as i32)],
        );
        t.handles.truncate(h);
        isa
    })
}

/// The end of an `accept` native: sets the new descriptor into the `FileDescriptor` argument
/// 1, stores the peer's address object that `peer` makes into element 0 of the array argument
/// 2, and answers 1; on any failure closes the new descriptor. The arguments are re-read (the
/// collector may have run while the accept waited).
fn finish_accept(
    t: &mut JThread,
    newfd: Fd,
    peer: impl FnOnce(&mut JThread) -> JResult<ObjRef>,
) -> JResult<u64> {
    let store = |t: &mut JThread| -> JResult<()> {
        let newfdo = nonnull(t, t.arg(1))?;
        super::io::set_fd(t, newfdo, newfd)?;
        let element = peer(t)?;
        let arr = nonnull(t, t.arg(2))?;
        if arr.array_len() < 1 {
            return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
        }
        t.domain
            .heap
            .write_ref(arr, base::layout::ARRAY_BASE, Some(element));
        Ok(())
    };
    match store(t) {
        Ok(()) => Ok(ret_int(1)),
        Err(e) => {
            t.domain.host().close(newfd).ok();
            Err(e)
        }
    }
}

// ---- sun.nio.ch.SocketDispatcher, EPoll, EventFD ----

fn register_dispatchers(r: &mut Registry) {
    let sd = "sun/nio/ch/SocketDispatcher";
    r.add(sd, "read0", "(Ljava/io/FileDescriptor;JI)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len) = (a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.recv(fd, addr, len));
        socket_read_result(t, r.map(|n| n as i64)).map(|v| ret_int(v as i32))
    });
    r.add(sd, "readv0", "(Ljava/io/FileDescriptor;JI)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let (iov, count) = (a[1] as usize, jint(a[3]));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.readv(fd, iov, count));
        socket_read_result(t, r.map(|n| n as i64)).map(|v| v as u64)
    });

    let ep = "sun/nio/ch/EPoll";
    r.add(ep, "eventSize", "()I", |_, _| {
        Ok(ret_int(net::epoll_event_layout().0 as i32))
    });
    r.add(ep, "eventsOffset", "()I", |_, _| {
        Ok(ret_int(net::epoll_event_layout().1 as i32))
    });
    r.add(ep, "dataOffset", "()I", |_, _| {
        Ok(ret_int(net::epoll_event_layout().2 as i32))
    });
    r.add(ep, "create", "()I", |t, _| {
        match t.domain.host().epoll_create() {
            Ok(fd) => Ok(ret_int(fd.0)),
            Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
        }
    });
    r.add(ep, "ctl", "(IIII)I", |t, a| {
        let r = t
            .domain
            .host()
            .epoll_ctl(jfd(a[0]), jint(a[1]), jfd(a[2]), jint(a[3]) as u32);
        Ok(ret_int(r.err().map_or(0, Errno::raw)))
    });
    r.add(ep, "wait", "(IJII)I", |t, a| {
        let (epfd, addr, count, timeout) = (jfd(a[0]), a[1] as usize, jint(a[3]), jint(a[4]));
        let backend = t.domain.host().clone();
        match t.blocking(|| backend.epoll_wait(epfd, addr, count, timeout)) {
            Ok(n) => Ok(ret_int(n)),
            Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
            Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
        }
    });

    // The poll selector (-Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.PollSelectorProvider).
    r.add("sun/nio/ch/PollSelectorImpl", "poll", "(JII)I", |t, a| {
        let (addr, count, timeout) = (a[0] as usize, jint(a[2]), jint(a[3]));
        let backend = t.domain.host().clone();
        match t.blocking(|| backend.poll_array(addr, count, timeout)) {
            Ok(n) => Ok(ret_int(n)),
            Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
            Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
        }
    });

    let ev = "sun/nio/ch/EventFD";
    r.add(ev, "eventfd0", "()I", |t, _| {
        match t.domain.host().eventfd() {
            Ok(fd) => Ok(ret_int(fd.0)),
            Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
        }
    });
    r.add(ev, "set0", "(I)I", |t, a| {
        match t.domain.host().write_buf(jfd(a[0]), &1u64.to_ne_bytes()) {
            Ok(n) => Ok(ret_int(n as i32)),
            Err(Errno::EAGAIN) => Ok(ret_int(IOS_UNAVAILABLE)),
            Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
            Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
        }
    });
}

/// SocketDispatcher's read result: a count, IOStatus code, ConnectionResetException or
/// IOException.
fn socket_read_result(t: &mut JThread, r: Result<i64, Errno>) -> JResult<i64> {
    match r {
        Ok(0) => Ok(IOS_EOF as i64),
        Ok(n) => Ok(n),
        Err(Errno::EAGAIN) => Ok(IOS_UNAVAILABLE as i64),
        Err(Errno::EINTR) => Ok(IOS_INTERRUPTED as i64),
        Err(Errno::ECONNRESET | Errno::EPIPE) => {
            Err(t.throw_new("sun/net/ConnectionResetException", Some("Connection reset")))
        }
        Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
    }
}

// ---- multicast (sun.nio.ch.Net) ----

/// libnio's `handleSocketErrorWithMessage`: the exception of `socket_error` with the OS
/// message followed by ` (message)`.
fn socket_error_with(t: &mut JThread, e: Errno, message: &str) -> Thrown {
    let msg = format!("{} ({message})", e.message());
    t.throw_new(socket_error_class(e), Some(&msg))
}

/// The result of a membership change: 0, IOS_UNAVAILABLE when joining is not supported
/// (ENOPROTOOPT, EOPNOTSUPP), else the exception.
fn membership(
    t: &mut JThread,
    r: Result<(), Errno>,
    adding: bool,
    message: Option<&str>,
) -> JResult<u64> {
    match r {
        Ok(()) => Ok(ret_int(0)),
        Err(Errno::ENOPROTOOPT | Errno::EOPNOTSUPP) if adding => Ok(ret_int(IOS_UNAVAILABLE)),
        Err(e) => Err(match message {
            Some(m) => socket_error_with(t, e, m),
            None => socket_error(t, e),
        }),
    }
}

fn register_multicast(r: &mut Registry) {
    let n = "sun/nio/ch/Net";
    r.add(
        n,
        "joinOrDrop4",
        "(ZLjava/io/FileDescriptor;III)I",
        |t, a| {
            let join = a[0] != 0;
            let fd = fdval(t, a[1])?;
            let res = t
                .domain
                .host()
                .join_or_drop4(fd, join, jint(a[2]), jint(a[3]), jint(a[4]));
            membership(t, res, join, Some("setsockopt failed"))
        },
    );
    r.add(
        n,
        "blockOrUnblock4",
        "(ZLjava/io/FileDescriptor;III)I",
        |t, a| {
            let block = a[0] != 0;
            let fd = fdval(t, a[1])?;
            let res =
                t.domain
                    .host()
                    .block_or_unblock4(fd, block, jint(a[2]), jint(a[3]), jint(a[4]));
            membership(t, res, block, None)
        },
    );
    r.add(
        n,
        "joinOrDrop6",
        "(ZLjava/io/FileDescriptor;[BI[B)I",
        |t, a| {
            let join = a[0] != 0;
            let fd = fdval(t, a[1])?;
            let group = ipv6_bytes(t, a[2])?;
            let source = if a[4] == 0 {
                None
            } else {
                Some(ipv6_bytes(t, a[4])?)
            };
            let res = t
                .domain
                .host()
                .join_or_drop6(fd, join, group, jint(a[3]), source);
            membership(t, res, join, Some("setsockopt failed"))
        },
    );
    r.add(
        n,
        "blockOrUnblock6",
        "(ZLjava/io/FileDescriptor;[BI[B)I",
        |t, a| {
            let block = a[0] != 0;
            let fd = fdval(t, a[1])?;
            let group = ipv6_bytes(t, a[2])?;
            let source = ipv6_bytes(t, a[4])?;
            let res = t
                .domain
                .host()
                .block_or_unblock6(fd, block, group, jint(a[3]), source);
            membership(t, res, block, None)
        },
    );
    r.add(
        n,
        "setInterface4",
        "(Ljava/io/FileDescriptor;I)V",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let res = t.domain.host().set_interface4(fd, jint(a[1]));
            sock(t, res).map(|_| 0)
        },
    );
    r.add(n, "getInterface4", "(Ljava/io/FileDescriptor;)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let res = t.domain.host().get_interface4(fd);
        sock(t, res).map(ret_int)
    });
    r.add(
        n,
        "setInterface6",
        "(Ljava/io/FileDescriptor;I)V",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let res = t.domain.host().set_interface6(fd, jint(a[1]));
            sock(t, res).map(|_| 0)
        },
    );
    r.add(n, "getInterface6", "(Ljava/io/FileDescriptor;)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let res = t.domain.host().get_interface6(fd);
        sock(t, res).map(ret_int)
    });
}

// ---- datagrams: sun.nio.ch.NativeSocketAddress, DatagramChannelImpl, DatagramDispatcher ----

fn register_datagrams(r: &mut Registry) {
    let nsa = "sun/nio/ch/NativeSocketAddress";
    r.add(nsa, "AFINET", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().af_inet))
    });
    r.add(nsa, "AFINET6", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().af_inet6))
    });
    r.add(nsa, "sizeofSockAddr4", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().sizeof_sockaddr4 as i32))
    });
    r.add(nsa, "sizeofSockAddr6", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().sizeof_sockaddr6 as i32))
    });
    r.add(nsa, "sizeofFamily", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().sizeof_family as i32))
    });
    r.add(nsa, "offsetFamily", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_family as i32))
    });
    r.add(nsa, "offsetSin4Port", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin4_port as i32))
    });
    r.add(nsa, "offsetSin4Addr", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin4_addr as i32))
    });
    r.add(nsa, "offsetSin6Port", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin6_port as i32))
    });
    r.add(nsa, "offsetSin6Addr", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin6_addr as i32))
    });
    r.add(nsa, "offsetSin6ScopeId", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin6_scope_id as i32))
    });
    r.add(nsa, "offsetSin6FlowInfo", "()I", |_, _| {
        Ok(ret_int(net::sockaddr_layout().offset_sin6_flowinfo as i32))
    });

    let dc = "sun/nio/ch/DatagramChannelImpl";
    r.add(
        dc,
        "receive0",
        "(Ljava/io/FileDescriptor;JIJZ)I",
        dc_receive0,
    );
    r.add(dc, "send0", "(Ljava/io/FileDescriptor;JIJI)I", dc_send0);
    r.add(dc, "disconnect0", "(Ljava/io/FileDescriptor;Z)V", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().disconnect(fd, a[1] != 0);
        sock(t, r).map(|_| 0)
    });

    let dd = "sun/nio/ch/DatagramDispatcher";
    r.add(dd, "read0", "(Ljava/io/FileDescriptor;JI)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len) = (a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.recv(fd, addr, len));
        datagram_result(t, r, true).map(|v| ret_int(v as i32))
    });
    r.add(dd, "readv0", "(Ljava/io/FileDescriptor;JI)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let (iov, count) = (a[1] as usize, jint(a[3]).min(fs::iov_max()));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.readv(fd, iov, count));
        datagram_result(t, r, true).map(|v| v as u64)
    });
    r.add(dd, "write0", "(Ljava/io/FileDescriptor;JI)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len) = (a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.send(fd, addr, len));
        datagram_result(t, r, false).map(|v| ret_int(v as i32))
    });
    r.add(dd, "writev0", "(Ljava/io/FileDescriptor;JI)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let (iov, count) = (a[1] as usize, jint(a[3]).min(fs::iov_max()));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.writev(fd, iov, count));
        datagram_result(t, r, false).map(|v| v as u64)
    });
}

fn port_unreachable(t: &mut JThread) -> Thrown {
    t.throw_new("java/net/PortUnreachableException", None)
}

/// DatagramDispatcher's result: ECONNREFUSED (an ICMP port unreachable reported on a
/// connected socket) is PortUnreachableException, the rest as libnio's `convertReturnVal`
/// (an empty datagram read is end-of-file, as there).
fn datagram_result(t: &mut JThread, r: Result<usize, Errno>, reading: bool) -> JResult<i64> {
    match r {
        Ok(0) if reading => Ok(IOS_EOF as i64),
        Ok(n) => Ok(n as i64),
        Err(Errno::EAGAIN) => Ok(IOS_UNAVAILABLE as i64),
        Err(Errno::EINTR) => Ok(IOS_INTERRUPTED as i64),
        Err(Errno::ECONNREFUSED) => Err(port_unreachable(t)),
        Err(e) => Err(throw_errno(t, "java/io/IOException", e)),
    }
}

/// DatagramChannelImpl's send/receive result: a count, IOStatus code,
/// PortUnreachableException (ECONNREFUSED) or the exception of `socket_error`.
fn datagram_channel_result(t: &mut JThread, r: Result<usize, Errno>) -> JResult<u64> {
    match r {
        Ok(n) => Ok(ret_int(n as i32)),
        Err(Errno::EAGAIN) => Ok(ret_int(IOS_UNAVAILABLE)),
        Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
        Err(Errno::ECONNREFUSED) => Err(port_unreachable(t)),
        Err(e) => Err(socket_error(t, e)),
    }
}

/// `int receive0(FileDescriptor fd, long bufAddress, int len, long senderAddress, boolean
/// connected)`: one datagram into the buffer, its sender's C address into the
/// NativeSocketAddress at `senderAddress`. A port-unreachable error is skipped on an
/// unconnected socket and PortUnreachableException on a connected one.
fn dc_receive0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = fdval(t, a[0])?;
    let (buf, len, sender, connected) = (
        a[1] as usize,
        jint(a[3]).max(0) as usize,
        a[4] as usize,
        a[6] != 0,
    );
    let backend = t.domain.host().clone();
    let r = t.blocking(|| {
        loop {
            match backend.recv_from(fd, buf, len, sender) {
                Err(Errno::ECONNREFUSED) if !connected => continue,
                r => return r,
            }
        }
    });
    datagram_channel_result(t, r)
}

/// `int send0(FileDescriptor fd, long bufAddress, int len, long targetAddress, int
/// targetAddressLen)`: one datagram to the C address at `targetAddress`.
fn dc_send0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = fdval(t, a[0])?;
    let (buf, len, target, target_len) = (
        a[1] as usize,
        jint(a[3]).max(0) as usize,
        a[4] as usize,
        jint(a[6]).max(0) as usize,
    );
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.send_to(fd, buf, len, target, target_len));
    datagram_channel_result(t, r)
}

// ---- jdk.net.LinuxSocketOptions (extended socket options) ----

/// Whether `opt` at `level` can be read from a fresh TCP socket.
fn option_supported(host: &dyn Host, level: i32, opt: i32) -> bool {
    let Ok(fd) = host.socket(false, true, false) else {
        return false;
    };
    let ok = host.get_int_option(fd, level, opt).is_ok();
    host.close(fd).ok();
    ok
}

fn tcp_option(t: &mut JThread, fd: Fd, opt: i32, set: Option<i32>) -> JResult<i32> {
    let r = match set {
        Some(v) => t
            .domain
            .host()
            .set_int_option(fd, libc::IPPROTO_TCP, opt, v)
            .map(|_| 0),
        None => t.domain.host().get_int_option(fd, libc::IPPROTO_TCP, opt),
    };
    sock_option(t, r)
}

fn register_linux_options(r: &mut Registry) {
    let l = "jdk/net/LinuxSocketOptions";
    r.add(l, "keepAliveOptionsSupported0", "()Z", |t, _| {
        Ok(ret_bool(option_supported(
            &**t.domain.host(),
            libc::IPPROTO_TCP,
            libc::TCP_KEEPIDLE,
        )))
    });
    r.add(l, "quickAckSupported0", "()Z", |t, _| {
        Ok(ret_bool(option_supported(
            &**t.domain.host(),
            libc::IPPROTO_TCP,
            libc::TCP_QUICKACK,
        )))
    });
    r.add(l, "incomingNapiIdSupported0", "()Z", |t, _| {
        Ok(ret_bool(option_supported(
            &**t.domain.host(),
            libc::SOL_SOCKET,
            libc::SO_INCOMING_NAPI_ID,
        )))
    });
    r.add(l, "setTcpKeepAliveProbes0", "(II)V", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPCNT, Some(jint(a[1]))).map(|_| 0)
    });
    r.add(l, "setTcpKeepAliveTime0", "(II)V", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPIDLE, Some(jint(a[1]))).map(|_| 0)
    });
    r.add(l, "setTcpKeepAliveIntvl0", "(II)V", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPINTVL, Some(jint(a[1]))).map(|_| 0)
    });
    r.add(l, "getTcpKeepAliveProbes0", "(I)I", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPCNT, None).map(ret_int)
    });
    r.add(l, "getTcpKeepAliveTime0", "(I)I", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPIDLE, None).map(ret_int)
    });
    r.add(l, "getTcpKeepAliveIntvl0", "(I)I", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_KEEPINTVL, None).map(ret_int)
    });
    r.add(l, "setQuickAck0", "(IZ)V", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_QUICKACK, Some((a[1] != 0) as i32)).map(|_| 0)
    });
    r.add(l, "getQuickAck0", "(I)Z", |t, a| {
        tcp_option(t, jfd(a[0]), libc::TCP_QUICKACK, None).map(|v| ret_bool(v != 0))
    });
    // The peer's uid in the high half, its gid in the low half (LinuxSocketOptions.getSoPeerCred).
    r.add(l, "getSoPeerCred0", "(I)J", |t, a| {
        let r = t.domain.host().peer_credentials(jfd(a[0]));
        let (uid, gid) = sock_option(t, r)?;
        Ok(((uid as u64) << 32) | gid as u64)
    });
    r.add(l, "getIncomingNapiId0", "(I)I", |t, a| {
        let r =
            t.domain
                .host()
                .get_int_option(jfd(a[0]), libc::SOL_SOCKET, libc::SO_INCOMING_NAPI_ID);
        sock_option(t, r).map(ret_int)
    });
}

// ---- sun.nio.ch.UnixDomainSockets ----

fn register_unix_domain(r: &mut Registry) {
    let u = "sun/nio/ch/UnixDomainSockets";
    r.add(u, "init", "()Z", |_, _| Ok(ret_bool(true)));
    r.add(u, "socket0", "()I", |t, _| {
        let r = t.domain.host().unix_socket();
        sock(t, r).map(ret_fd)
    });
    r.add(u, "bind0", "(Ljava/io/FileDescriptor;[B)V", |t, a| {
        let fd = fdval(t, a[0])?;
        let path = unix_path(t, a[1])?;
        let r = t.domain.host().unix_bind(fd, &path);
        sock(t, r).map(|_| 0)
    });
    r.add(u, "connect0", "(Ljava/io/FileDescriptor;[B)I", uds_connect);
    r.add(
        u,
        "accept0",
        "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;[Ljava/lang/Object;)I",
        uds_accept,
    );
    r.add(
        u,
        "localAddress0",
        "(Ljava/io/FileDescriptor;)[B",
        |t, a| {
            let fd = fdval(t, a[0])?;
            let r = t.domain.host().unix_local_address(fd);
            let path = sock(t, r)?;
            Ok(t.new_byte_array(&path)?.slot())
        },
    );
}

/// A socket path from Java (a byte[]); as libnio, one that does not fit a `sockaddr_un` is a
/// SocketException.
fn unix_path(t: &mut JThread, v: u64) -> JResult<Vec<u8>> {
    let arr = nonnull(t, v)?;
    let path = arr.array_slice::<u8>().to_vec();
    if path.len() >= net::UNIX_PATH_MAX {
        return Err(t.throw_new(
            "java/net/SocketException",
            Some("Unix domain path too long"),
        ));
    }
    Ok(path)
}

fn uds_connect(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = fdval(t, a[0])?;
    let path = unix_path(t, a[1])?;
    let backend = t.domain.host().clone();
    match t.blocking(|| backend.unix_connect(fd, &path)) {
        Ok(true) => Ok(ret_int(1)),
        Ok(false) => Ok(ret_int(IOS_UNAVAILABLE)),
        Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED)),
        Err(e) => Err(socket_error(t, e)),
    }
}

fn uds_accept(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = fdval(t, a[0])?;
    let backend = t.domain.host().clone();
    let (newfd, peer) = match t.blocking(|| backend.unix_accept(fd)) {
        Ok(r) => r,
        Err(Errno::EAGAIN) => return Ok(ret_int(IOS_UNAVAILABLE)),
        Err(Errno::EINTR) => return Ok(ret_int(IOS_INTERRUPTED)),
        Err(e) => return Err(socket_error(t, e)),
    };
    finish_accept(t, newfd, |t| t.new_byte_array(&peer))
}

// ---- sun.net.PortConfig: the ephemeral port range ----

fn register_port_config(r: &mut Registry) {
    let pc = "sun/net/PortConfig";
    r.add(pc, "getLower0", "()I", |t, _| {
        Ok(ret_int(port_range(t).map_or(-1, |r| r.0)))
    });
    r.add(pc, "getUpper0", "()I", |t, _| {
        Ok(ret_int(port_range(t).map_or(-1, |r| r.1)))
    });
}

/// The kernel's ephemeral port range, the two numbers of
/// `/proc/sys/net/ipv4/ip_local_port_range` (None: unreadable, and PortConfig takes Linux's
/// defaults).
fn port_range(t: &mut JThread) -> Option<(i32, i32)> {
    let host = t.domain.host().clone();
    let fd = host
        .io_open(
            "/proc/sys/net/ipv4/ip_local_port_range",
            port::OpenMode::Read,
        )
        .ok()?;
    let mut buf = [0u8; 64];
    let n = host.io_read(fd, &mut buf);
    host.io_close(fd).ok();
    let text = std::str::from_utf8(buf.get(..n.ok()?)?).ok()?;
    let mut it = text.split_whitespace().map(|w| w.parse::<i32>().ok());
    Some((it.next()??, it.next()??))
}
