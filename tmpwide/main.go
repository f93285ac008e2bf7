package main

import (
	"context"
	"fmt"
	"os"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

func main() {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath("chromium"), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel2 := chromedp.NewContext(actx)
	defer cancel2()
	for _, f := range os.Args[1:] {
		var sw, cw int
		var who string
		err := chromedp.Run(ctx,
			emulation.SetDeviceMetricsOverride(390, 844, 2, true),
			chromedp.Navigate("file://"+f),
			chromedp.Evaluate(`document.documentElement.scrollWidth`, &sw),
			chromedp.Evaluate(`document.documentElement.clientWidth`, &cw),
			chromedp.Evaluate(`(()=>{let w=document.documentElement.clientWidth;let out=[];for(const e of document.querySelectorAll('body *')){const r=e.getBoundingClientRect();if(r.right>w+1 && !e.closest('.scroll')){out.push(e.tagName+'.'+e.className+' '+Math.round(r.right));}}return out.slice(0,5).join(' | ')})()`, &who),
		)
		if err != nil {
			fmt.Println(f, err)
			continue
		}
		if sw > cw {
			fmt.Printf("WIDE %s %d>%d %s\n", f, sw, cw, who)
		}
	}
}
