// mp.cpp — message passing in C++, as a ping-pong: the writer publishes x
// through an std::atomic flag, the reader consumes x and hands the flag
// back.  Buggy (default): relaxed flag accesses, a data race on x (KCSAN
// reports it "(reordered)"); -DFIXED: release store / acquire load.
// Runs until the runtime has reported or argv[1] seconds have passed;
// prints "reports=N" and exits 0.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

extern "C" unsigned long kcsan_rt_reports(void);

#ifdef FIXED
static const std::memory_order pub = std::memory_order_release;
static const std::memory_order con = std::memory_order_acquire;
#else
static const std::memory_order pub = std::memory_order_relaxed;
static const std::memory_order con = std::memory_order_relaxed;
#endif

static int x;
static std::atomic<int> flag{0};
static std::atomic<bool> stop{false};

struct Writer {
	long sink = 0;
	__attribute__((noinline)) void once(int v)
	{
		while (flag.load(con) != 0)
			if (stop.load(std::memory_order_relaxed))
				return;
		x = v;		// the race in the buggy twin
		flag.store(1, pub);
		for (int i = 0; i < 4; i++)
			sink += stop.load(std::memory_order_relaxed);
	}
};

struct Reader {
	long sink = 0;
	__attribute__((noinline)) void once()
	{
		while (flag.load(con) != 1)
			if (stop.load(std::memory_order_relaxed))
				return;
		int r = x;	// the race in the buggy twin
		flag.store(0, pub);
		for (int i = 0; i < 4; i++)
			sink += stop.load(std::memory_order_relaxed) + r;
	}
};

int main(int argc, char **argv)
{
	double limit = argc > 1 ? std::atof(argv[1]) : 20.0;
	auto t0 = std::chrono::steady_clock::now();
	std::thread a([] { Writer w; for (int v = 1; !stop.load(); v++) w.once(v); });
	std::thread b([] { Reader r; while (!stop.load()) r.once(); });

	while (kcsan_rt_reports() == 0 &&
	       std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < limit)
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	stop.store(true);
	a.join();
	b.join();
	std::printf("reports=%lu\n", kcsan_rt_reports());
	return 0;
}
