// RunJUnitMethods.java — runs JUnit 4 test methods one by one and prints
// one line per method: "PASS Class#method" or "FAIL Class#method: kind:
// message".  Arguments: Class#method ... or just Class (all its @Test
// methods).  Used by tests/e2e/monosat_java.case.sh to run MonoSAT's own
// Java tests against gsat's libmonosat.so.  Exit status 0 iff all passed.

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.junit.Test;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

public class RunJUnitMethods {
  public static void main(String[] args) throws Exception {
    List<String[]> todo = new ArrayList<>();
    for (String a : args) {
      String[] parts = a.split("#");
      if (parts.length == 2) {
        todo.add(parts);
        continue;
      }
      for (Method m : Class.forName(a).getMethods())
        if (m.isAnnotationPresent(Test.class)) todo.add(new String[] {a, m.getName()});
    }
    int failed = 0;
    JUnitCore core = new JUnitCore();
    for (String[] t : todo) {
      Result r = core.run(Request.method(Class.forName(t[0]), t[1]));
      if (r.wasSuccessful()) {
        System.out.println("PASS " + t[0] + "#" + t[1]);
      } else {
        failed++;
        Failure f = r.getFailures().get(0);
        Throwable e = f.getException();
        String msg = String.valueOf(e.getMessage()).replace('\n', ' ');
        System.out.println("FAIL " + t[0] + "#" + t[1] + ": " + e.getClass().getName() + ": "
            + msg.substring(0, Math.min(160, msg.length())));
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
