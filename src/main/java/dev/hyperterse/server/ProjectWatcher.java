package dev.hyperterse.server;

import dev.hyperterse.project.ProjectFingerprint;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code start --watch}: scans the project folder every interval (on a worker thread) and asks
 * for a reload when its files changed. A change is acted on once two scans in a row agree, so an
 * editor's save in several writes, or a ConfigMap update in progress, is read once it is whole.
 * A change that fails to reload is not retried until the files change again.
 */
final class ProjectWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectWatcher.class);
    private static final int CHANGES_SHOWN = 5;

    private final Vertx vertx;
    private final Path projectDir;
    private final Duration interval;
    private final Supplier<Future<Void>> reload;
    // touched only from the timer's context, one scan at a time
    private ProjectFingerprint applied;
    private ProjectFingerprint pending;
    private boolean scanning;
    private long timer = -1;
    private volatile boolean stopped;

    ProjectWatcher(Vertx vertx, Path projectDir, Duration interval, Supplier<Future<Void>> reload) {
        this.vertx = vertx;
        this.projectDir = projectDir;
        this.interval = interval;
        this.reload = reload;
    }

    /** Takes the first fingerprint (what is being served), then scans every interval. */
    Future<Void> start() {
        return vertx.executeBlocking(() -> ProjectFingerprint.scan(projectDir), false).map(first -> {
            applied = first;
            if (!stopped) {
                timer = vertx.setPeriodic(Math.max(10, interval.toMillis()), id -> tick());
                LOG.info("watching {} for changes every {} ms", projectDir, interval.toMillis());
            }
            return null;
        });
    }

    void stop() {
        stopped = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private void tick() {
        if (scanning || stopped) {
            return;
        }
        scanning = true;
        vertx.executeBlocking(() -> ProjectFingerprint.scan(projectDir), false).onComplete(ar -> {
            scanning = false;
            if (ar.failed()) {
                LOG.warn("cannot scan the project for changes: {}", ar.cause().getMessage());
                return;
            }
            ProjectFingerprint now = ar.result();
            if (now.equals(applied)) {
                pending = null;
                return;
            }
            if (!now.equals(pending)) {
                // changed since the last scan: wait for one more scan to see it settled
                pending = now;
                return;
            }
            List<String> changes = now.changesSince(applied);
            applied = now;
            pending = null;
            if (stopped) {
                return;
            }
            LOG.info("project files changed ({}{}): reloading", String.join(", ",
                            changes.subList(0, Math.min(CHANGES_SHOWN, changes.size()))),
                    changes.size() > CHANGES_SHOWN ? " and " + (changes.size() - CHANGES_SHOWN) + " more" : "");
            reload.get();
        });
    }
}
