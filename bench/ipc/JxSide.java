import jx.ipc.Channel;

/** IpcBench's jxvm transport (kept apart so that HotSpot never loads jx.ipc). */
final class JxSide {
    static IpcBench.Link listen(String name) throws Exception {
        return wrap(Channel.listen(name, 60_000));
    }

    static IpcBench.Link connect(String name) throws Exception {
        for (int i = 0; ; i++) {
            try {
                return wrap(Channel.connect(name));
            } catch (java.io.IOException e) {
                if (i > 3000) throw e;
                Thread.sleep(10);
            }
        }
    }

    static IpcBench.Link wrap(Channel ch) {
        return new IpcBench.Link() {
            public void send(Object o) throws Exception {
                ch.send(o);
            }

            public Object receive() throws Exception {
                return ch.receive();
            }
        };
    }
}
