import com.sun.security.auth.module.UnixSystem;
import java.util.*;

/** com.sun.security.auth.module.UnixSystem (jdk.security.auth, UnixSystem.getUnixInfo): the
 *  process's user name, uid, gid and supplementary groups, checked against what the JDK
 *  says elsewhere (user.name, the owner of a new file). */
public class UnixSystemInfo {
    public static void main(String[] args) throws Exception {
        UnixSystem u = new UnixSystem();
        System.out.println("username is user.name: " + Objects.equals(u.getUsername(), System.getProperty("user.name")));
        System.out.println("uid " + u.getUid() + " gid " + u.getGid());
        long[] groups = u.getGroups();
        Arrays.sort(groups);
        System.out.println("groups " + Arrays.toString(groups));
        System.out.println("copies: " + (u.getGroups() != u.getGroups()));
        var f = java.nio.file.Files.createTempFile("unixsystem", ".tmp");
        try {
            int owner = (Integer) java.nio.file.Files.getAttribute(f, "unix:uid");
            System.out.println("new files are the uid's: " + (owner == u.getUid()));
        } finally {
            java.nio.file.Files.delete(f);
        }
        UnixSystem again = new UnixSystem();
        System.out.println("same again: " + (again.getUid() == u.getUid() && again.getUsername().equals(u.getUsername())));
    }
}
