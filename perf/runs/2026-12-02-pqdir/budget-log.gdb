set pagination off
set print thread-events off
break feedmill::bulk::pipeline::flow::Budget::admit
commands
silent
printf "admit %lu chunk %lu\n", $rsi, $rdx
continue
end
break feedmill::bulk::pipeline::flow::Budget::release
commands
silent
printf "release %lu\n", $rsi
continue
end
run
