import java.io.File;
import java.nio.file.*;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.*;
import java.util.prefs.*;

/** java.util.prefs on its file-system backend: the lock file (lockFile0/unlockFile0) and the
 *  modes it sets (chmod), in a user root of its own. */
public class PrefsFileSystem {
    // Kept reachable: the backend's INFO line ("Created user preferences directory.") carries a
    // time stamp.
    static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger("java.util.prefs");

    public static void main(String[] args) throws Exception {
        LOG.setLevel(java.util.logging.Level.WARNING);
        Path root = Files.createTempDirectory("prefs-conf");
        Path userRoot = root.resolve("user");
        System.setProperty("java.util.prefs.userRoot", userRoot.toString());
        System.setProperty("java.util.prefs.systemRoot", root.resolve("system").toString());
        try {
            Preferences p = Preferences.userRoot().node("jxvm/conformance");
            p.put("name", "jxvm");
            p.putInt("answer", 42);
            p.putBoolean("flag", true);
            p.putByteArray("bytes", new byte[] {1, 2, 3, (byte) 0xff});
            p.flush();
            System.out.println("keys " + new TreeSet<>(Arrays.asList(p.keys())));
            System.out.println("answer " + p.getInt("answer", -1) + " flag " + p.getBoolean("flag", false)
                    + " bytes " + Arrays.toString(p.getByteArray("bytes", null)));
            System.out.println("children of jxvm " + Arrays.toString(Preferences.userRoot().node("jxvm").childrenNames()));
            // What the file-system backend wrote, with the modes it gave.
            List<String> files = new ArrayList<>();
            String user = System.getProperty("user.name");
            try (var walk = Files.walk(root)) {
                walk.sorted().forEach(f -> {
                    try {
                        String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
                        String name = root.relativize(f).toString().replace(user, "USER");
                        if (Files.isDirectory(f)) perms = "d" + perms;
                        files.add(name + " " + (name.endsWith(".lock.USER") || name.contains("Mod") || name.equals("user") ? perms : ""));
                    } catch (Exception e) { files.add(f + " " + e); }
                });
            }
            files.forEach(System.out::println);
            String xml = Files.readString(userRoot.resolve(".java/.userPrefs/jxvm/conformance/prefs.xml"));
            System.out.println("prefs.xml has name: " + xml.contains("key=\"name\" value=\"jxvm\""));
            // A node removed and synced again.
            p.remove("flag");
            p.sync();
            System.out.println("after remove " + new TreeSet<>(Arrays.asList(p.keys())));
            Preferences.userRoot().node("jxvm").removeNode();
            Preferences.userRoot().flush();
            System.out.println("removed, exists: " + Files.exists(userRoot.resolve(".java/.userPrefs/jxvm")));
        } finally {
            try (var walk = Files.walk(root)) {
                walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }
}
