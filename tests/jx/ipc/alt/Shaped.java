// The receiving side's version of Shaped (tests/jx/ipc/IpcPeer.java has the sender's): same
// name, other fields, so a Shaped sent across is an InvalidClassException.
class Shaped {
    long a;
    String b;
    int c;
}
