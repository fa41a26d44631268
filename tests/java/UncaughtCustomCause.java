import java.io.IOException;

public class UncaughtCustomCause {
    static class ConfigException extends Exception {
        ConfigException(String msg, Throwable cause) { super(msg, cause); }
    }

    static String readConfig(String name) throws IOException {
        if (name.endsWith(".missing")) throw new IOException("file not found: " + name);
        return "key=value";
    }

    static String load(String name) throws ConfigException {
        try {
            return readConfig(name);
        } catch (IOException e) {
            throw new ConfigException("could not load configuration '" + name + "'", e);
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("loaded: " + load("app.conf"));
        System.out.println("about to fail");
        System.out.flush();
        load("db.missing");
        System.out.println("never printed");
    }
}
